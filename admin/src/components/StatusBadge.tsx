import { Badge } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { SyncStatus } from '../../../shared/contracts/sync';
import { getTranslation } from '../utils/getTranslation';

const VARIANT: Record<
  SyncStatus | 'none',
  'success' | 'secondary' | 'danger' | 'neutral' | 'warning'
> = {
  synced: 'success',
  pending: 'secondary',
  failed: 'danger',
  skipped: 'neutral',
  orphaned: 'warning',
  imported: 'secondary',
  none: 'neutral',
};

export const STATUS_LABELS: Record<SyncStatus | 'none', string> = {
  synced: 'Synced',
  pending: 'Pending',
  failed: 'Failed',
  skipped: 'Skipped',
  orphaned: 'Removed',
  imported: 'Imported, not published',
  none: 'Not pushed yet',
};

export function useStatusLabel() {
  const { formatMessage } = useIntl();
  return (status: SyncStatus | 'none') =>
    formatMessage({
      id: getTranslation(`status.${status}`),
      defaultMessage: STATUS_LABELS[status],
    });
}

export const StatusBadge = ({ status }: { status: SyncStatus | 'none' }) => {
  const label = useStatusLabel();
  return <Badge variant={VARIANT[status]}>{label(status)}</Badge>;
};
