import { Badge, Flex, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { ResyncProgress } from '../../../../shared/contracts/sync';
import { useT } from '../../hooks/useT';
import { formatDuration, percent } from '../../utils/format';
import { ProgressBar } from '../../components/ProgressBar';
import { Card } from './Card';

/** The running or last resync: its progress bar, counts, rate and time left. */
export const ResyncCard = ({ job }: { job: ResyncProgress }) => {
  const t = useT();
  const { formatDate, formatNumber } = useIntl();
  const finished = job.done + job.failed + job.skipped;
  const value = job.state === 'done' ? 100 : percent(finished, job.total);
  const running = job.state === 'running';
  const stateLabel: Record<ResyncProgress['state'], string> = {
    running: t('resync.state.running', 'Running'),
    done: t('resync.state.done', 'Finished'),
    failed: t('resync.state.failed', 'Stopped'),
    cancelled: t('resync.state.cancelled', 'Cancelled'),
  };
  const eta = formatDuration(job.etaMs);
  return (
    <Card data-testid="resync-progress">
      <Flex direction="column" alignItems="stretch" gap={3}>
        <Flex justifyContent="space-between" alignItems="center" gap={2} wrap="wrap">
          <Flex gap={2} alignItems="center">
            <Typography variant="delta" tag="h2">
              {t('resync.title', 'Resync')}
            </Typography>
            <Badge
              variant={running ? 'secondary' : job.state === 'done' ? 'success' : 'danger'}
              data-testid="resync-state"
            >
              {stateLabel[job.state]}
            </Badge>
          </Flex>
          <Typography variant="pi" textColor="neutral600">
            {t('resync.started', 'Started {when}', {
              when: formatDate(job.startedAt, { dateStyle: 'medium', timeStyle: 'medium' }),
            })}
            {job.finishedAt
              ? ` · ${t('resync.finished', 'finished {when}', { when: formatDate(job.finishedAt, { timeStyle: 'medium' }) })}`
              : ''}
          </Typography>
        </Flex>
        <Flex gap={3} alignItems="center">
          <ProgressBar
            flex="1"
            value={value}
            label={t('resync.progress', 'Resync progress')}
            stopped={job.state === 'failed'}
            failures={job.failed}
            running={running}
          />
          <Typography fontWeight="bold" data-testid="resync-percent">
            {value}%
          </Typography>
        </Flex>
        <Typography data-testid="resync-counts">
          {t(
            'resync.counts',
            '{finished} of {total} entries · {done} pushed · {failed} failed · {skipped} unchanged',
            {
              finished: formatNumber(finished),
              total: formatNumber(job.total),
              done: formatNumber(job.done),
              failed: formatNumber(job.failed),
              skipped: formatNumber(job.skipped),
            }
          )}
        </Typography>
        {running ? (
          <Typography variant="pi" textColor="neutral600">
            {t('resync.rate', '{rate} entries/s', {
              rate: formatNumber(job.rate, { maximumFractionDigits: 1 }),
            })}
            {' · '}
            {eta
              ? t('resync.eta', 'about {eta} left', { eta })
              : t('resync.etaUnknown', 'time left unknown yet')}
          </Typography>
        ) : null}
        {job.error ? (
          <Typography textColor="danger600" data-testid="resync-error">
            {job.error}
          </Typography>
        ) : null}
      </Flex>
    </Card>
  );
};
