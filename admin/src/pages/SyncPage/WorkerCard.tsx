import { Flex, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { SyncStatusReport } from '../../../../shared/contracts/sync';
import { useT } from '../../hooks/useT';
import { Card } from './Card';

/** The queue and the rate limit the worker holds, and a pause the API asked for. */
export const WorkerCard = ({ report }: { report: SyncStatusReport }) => {
  const t = useT();
  const { formatDate, formatNumber } = useIntl();
  const pausedUntil =
    report.rateLimit.pausedUntil && new Date(report.rateLimit.pausedUntil) > new Date()
      ? report.rateLimit.pausedUntil
      : null;
  return (
    <Card>
      <Flex direction="column" alignItems="stretch" gap={2}>
        <Typography variant="delta" tag="h2">
          {t('sync.worker', 'Worker')}
        </Typography>
        <Typography>
          {t('sync.worker.queue', '{depth} queued ({due} due now) · {inFlight} in flight', {
            depth: formatNumber(report.queue.depth),
            due: formatNumber(report.queue.due),
            inFlight: formatNumber(report.queue.inFlight),
          })}
        </Typography>
        <Typography>
          {t(
            'sync.worker.rate',
            'Rate limit: {rps} requests/s, {concurrency} at a time · paused {pauses, plural, one {# time} other {# times}} by the API (429)',
            {
              rps: formatNumber(report.rateLimit.requestsPerSecond),
              concurrency: report.rateLimit.concurrency,
              pauses: report.rateLimit.pauses,
            }
          )}
        </Typography>
        {pausedUntil ? (
          <Typography textColor="warning600">
            {t('sync.worker.paused', 'Paused by the API until {when}', {
              when: formatDate(pausedUntil, { timeStyle: 'medium' }),
            })}
          </Typography>
        ) : null}
      </Flex>
    </Card>
  );
};
