import { Grid } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { STATUSES, type SyncStatusReport } from '../../../../shared/contracts/sync';
import { useStatusLabel } from '../../components/StatusBadge';
import { useT } from '../../hooks/useT';
import { Stat } from './Card';

/** One number per status, and the queue's depth. */
export const StatusCounts = ({ report }: { report: SyncStatusReport }) => {
  const t = useT();
  const { formatNumber } = useIntl();
  const statusLabel = useStatusLabel();
  return (
    <Grid.Root gap={4}>
      {STATUSES.map((s) => (
        <Grid.Item key={s} col={2} s={4} xs={6}>
          <Stat
            label={statusLabel(s)}
            value={formatNumber(report.counts[s] ?? 0)}
            tone={s === 'failed' && report.counts.failed ? 'danger600' : undefined}
            testId={`count-${s}`}
          />
        </Grid.Item>
      ))}
      <Grid.Item col={2} s={4} xs={6}>
        <Stat
          label={t('sync.queue', 'Queued changes')}
          value={formatNumber(report.queue.depth)}
          testId="queue-depth"
        />
      </Grid.Item>
    </Grid.Root>
  );
};
