import * as React from 'react';
import { Button, Dialog, Flex, Typography } from '@strapi/design-system';
import { ArrowClockwise, Eye, WarningCircle } from '@strapi/icons';
import { ConfirmDialog, useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import type { DryRunPlan, SyncStatusReport } from '../../../../shared/contracts/sync';
import { useContentTypes } from '../../hooks/useContentTypes';
import { useT } from '../../hooks/useT';
import {
  useDryRunMutation,
  useRetryFailedMutation,
  useStartResyncMutation,
} from '../../services/api';
import { useRequestError } from '../../services/errors';
import { DryRunModal } from './DryRunModal';
import { UnownedWarning } from './InventorySection';

/** The dashboard's header actions: dry run, retry the failed entries, resync (confirmed). */
export const SyncActions = ({
  report,
  onLink,
}: {
  report: SyncStatusReport;
  /** opens the link proposal, when the resync's confirmation says to link first */
  onLink: () => void;
}) => {
  const t = useT();
  const { formatNumber } = useIntl();
  const { toggleNotification } = useNotification();
  const { notify } = useRequestError();
  const { names } = useContentTypes();
  const [startResync, starting] = useStartResyncMutation();
  const [retryFailed, retrying] = useRetryFailedMutation();
  const [dryRun, dryRunning] = useDryRunMutation();
  const [confirming, setConfirming] = React.useState(false);
  const [plan, setPlan] = React.useState<DryRunPlan | null>(null);
  const busy = starting.isLoading || retrying.isLoading || dryRunning.isLoading;
  const running = report.resync?.state === 'running';
  // Outside pushIn a resync would only fill the queue: nothing would be sent, so it is off here.
  const notPushing = !report.environment.pushing;

  const resync = async () => {
    const res = await startResync();
    if ('error' in res) return notify(res.error);
    setConfirming(false);
    toggleNotification({
      type: 'success',
      message: t(
        'resync.started.notice',
        'Resync started. You can leave this page: it runs on the server.'
      ),
    });
  };

  const retry = async () => {
    const res = await retryFailed();
    if ('error' in res) return notify(res.error);
    toggleNotification({
      type: 'success',
      message: t(
        'retry.queued',
        '{count, plural, =0 {Nothing to retry.} one {# entry queued again.} other {# entries queued again.}}',
        { count: res.data.queued }
      ),
    });
  };

  const showPlan = async () => {
    const res = await dryRun();
    if ('error' in res) return notify(res.error);
    setPlan(res.data.plan);
  };

  return (
    <>
      <Flex gap={2} alignItems="center">
        {notPushing ? (
          <Typography variant="pi" textColor="warning700" data-testid="resync-off">
            {t('sync.resync.off', 'Nothing is pushed in "{name}": Resync is off.', {
              name: report.environment.name,
            })}
          </Typography>
        ) : null}
        <Button
          variant="tertiary"
          startIcon={<Eye />}
          onClick={showPlan}
          loading={dryRunning.isLoading}
          disabled={busy}
        >
          {t('sync.dryRun', 'Dry run')}
        </Button>
        <Button
          variant="secondary"
          startIcon={<WarningCircle />}
          onClick={retry}
          loading={retrying.isLoading}
          disabled={busy || report.counts.failed === 0}
        >
          {t('sync.retryFailed', 'Retry failed ({count})', {
            count: formatNumber(report.counts.failed),
          })}
        </Button>
        <Dialog.Root open={confirming} onOpenChange={setConfirming}>
          <Dialog.Trigger>
            <Button
              startIcon={<ArrowClockwise />}
              disabled={running || busy || !report.configured || notPushing}
              data-testid="resync-button"
            >
              {running ? t('sync.resyncRunning', 'Resync running…') : t('sync.resync', 'Resync')}
            </Button>
          </Dialog.Trigger>
          <ConfirmDialog
            title={t('sync.resync.confirm.title', 'Resync everything?')}
            variant="default"
            endAction={
              <Button
                fullWidth
                onClick={resync}
                loading={starting.isLoading}
                data-testid="resync-confirm"
              >
                {t('sync.resync.confirm.action', 'Start resync')}
              </Button>
            }
          >
            {t(
              'sync.resync.confirm.body',
              'Every published entry of the mapped content types is checked and pushed if it changed; remote objects of deleted entries are removed. It runs in the background and respects the API rate limit.'
            )}
            <UnownedWarning
              inventory={report.inventory}
              onLink={() => (setConfirming(false), onLink())}
            />
          </ConfirmDialog>
        </Dialog.Root>
      </Flex>
      {plan ? <DryRunModal plan={plan} names={names} onClose={() => setPlan(null)} /> : null}
    </>
  );
};
