import { Box, Flex, Grid, Loader, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { SyncStatus } from '../../../shared/contracts/sync';
import { useT } from '../hooks/useT';
import { useSyncSummary } from '../services/api';
import { useRequestError } from '../services/errors';
import { useStatusLabel } from './StatusBadge';

const SHOWN: Array<{ status: SyncStatus; tone: (n: number) => string }> = [
  { status: 'synced', tone: () => 'success600' },
  { status: 'pending', tone: () => 'neutral800' },
  { status: 'failed', tone: (n) => (n ? 'danger600' : 'neutral800') },
];

/**
 * The homepage widget (Strapi releases with homepage widgets; registered in index.ts): the counts
 * of the dashboard, the last resync and the last check of the remote. The widget's own header
 * links to the dashboard. Only the design system here: Strapi's `Widget` helpers are not in
 * every 5.x release.
 */
export const SyncWidget = () => {
  const t = useT();
  const { formatDate, formatNumber } = useIntl();
  const statusLabel = useStatusLabel();
  const { message } = useRequestError();
  const { data: report, error } = useSyncSummary();
  const when = (iso: string) => formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' });

  if (!report && error)
    return (
      <Typography textColor="danger600" data-testid="location-content-widget-error">
        {message(error)}
      </Typography>
    );
  if (!report) return <Loader small>{t('widget.loading', 'Loading the sync status')}</Loader>;

  const resync = report.resync;
  const resyncState = resync
    ? {
        running: t('resync.state.running', 'Running'),
        done: t('resync.state.done', 'Finished'),
        failed: t('resync.state.failed', 'Stopped'),
        cancelled: t('resync.state.cancelled', 'Cancelled'),
      }[resync.state]
    : null;

  return (
    <Flex
      direction="column"
      alignItems="stretch"
      gap={4}
      width="100%"
      data-testid="location-content-widget"
    >
      {!report.environment.pushing ? (
        <Typography textColor="warning700" fontWeight="bold" data-testid="widget-not-pushing">
          {t('widget.notPushing', 'Environment "{name}": nothing is pushed', {
            name: report.environment.name,
          })}
        </Typography>
      ) : !report.configured ? (
        <Typography textColor="warning700" fontWeight="bold">
          {t('sync.notConfigured.title', 'Not connected')}
        </Typography>
      ) : null}
      <Grid.Root gap={3}>
        {SHOWN.map(({ status, tone }) => {
          const n = report.counts[status] ?? 0;
          return (
            <Grid.Item key={status} col={4} direction="column" alignItems="flex-start">
              <Box>
                <Typography variant="sigma" textColor="neutral600" tag="p">
                  {statusLabel(status)}
                </Typography>
                <Typography
                  variant="beta"
                  textColor={tone(n)}
                  tag="p"
                  data-testid={`widget-count-${status}`}
                >
                  {formatNumber(n)}
                </Typography>
              </Box>
            </Grid.Item>
          );
        })}
      </Grid.Root>
      <Flex direction="column" alignItems="flex-start" gap={1}>
        <Typography variant="pi" textColor="neutral600" data-testid="widget-queue">
          {t(
            'widget.queue',
            '{count, plural, =0 {No change queued} one {# change queued} other {# changes queued}}',
            { count: report.queue.depth }
          )}
        </Typography>
        <Typography variant="pi" textColor="neutral600" data-testid="widget-resync">
          {resync
            ? t('widget.resync', 'Last resync: {when} ({state})', {
                when: when(resync.finishedAt ?? resync.startedAt),
                state: resyncState,
              })
            : t('widget.resync.never', 'No resync yet')}
        </Typography>
        <Typography variant="pi" textColor="neutral600" data-testid="widget-drift">
          {report.reconcile.lastCheckAt
            ? t('widget.drift', 'Last check of the remote: {when}', {
                when: when(report.reconcile.lastCheckAt),
              })
            : t('drift.never', 'The remote has not been checked yet.')}
        </Typography>
      </Flex>
    </Flex>
  );
};
