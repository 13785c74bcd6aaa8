import * as React from 'react';
import { Flex } from '@strapi/design-system';
import { Layouts, Page, useRBAC } from '@strapi/strapi/admin';
import { EnvironmentBanner } from '../../components/EnvironmentBanner';
import { PushTargetLine } from '../../components/PushTargetLine';
import { Notice } from '../../components/Notice';
import { RecordingAlert } from '../../components/RecordingAlert';
import { useT } from '../../hooks/useT';
import { PERMISSIONS, SYNC_PERMISSIONS } from '../../permissions';
import { useSyncStatus } from '../../services/api';
import { useRequestError } from '../../services/errors';
import { ByContentType } from './ByContentType';
import { CredentialsAlert } from './CredentialsAlert';
import { DriftSection } from './DriftSection';
import { FailedEntries } from './FailedEntries';
import { InventorySection } from './InventorySection';
import { ResyncCard } from './ResyncCard';
import { StatusCounts } from './StatusCounts';
import { SyncActions } from './SyncActions';
import { WorkerCard } from './WorkerCard';

/** The sync dashboard: what reached the API, what waits, what failed, and the remote's state. */
const Dashboard = ({ canTrigger }: { canTrigger: boolean }) => {
  const t = useT();
  const { message } = useRequestError();
  // Polled from services/api: faster while a resync runs or the queue holds work.
  const { data: report, error } = useSyncStatus();
  const [openLink, setOpenLink] = React.useState(0);

  if (error && !report) return <Page.Error content={message(error)} />;
  if (!report) return <Page.Loading />;

  return (
    <>
      <Layouts.Header
        title={t('sync.title', 'Location Content sync')}
        subtitle={t(
          'sync.subtitle',
          'What has reached the Location Content API, what is waiting, and what failed'
        )}
        primaryAction={
          canTrigger ? (
            <SyncActions report={report} onLink={() => setOpenLink((n) => n + 1)} />
          ) : null
        }
      />
      <Layouts.Content>
        <Flex direction="column" alignItems="stretch" gap={6}>
          <EnvironmentBanner environment={report.environment} />
          <PushTargetLine target={report.target} environment={report.environment} />
          <CredentialsAlert report={report} />
          {report.recording ? <RecordingAlert failure={report.recording} /> : null}
          {error ? (
            <Notice variant="danger" title={t('sync.stale', 'Cannot refresh')}>
              {message(error)}
            </Notice>
          ) : null}
          {report.resync ? <ResyncCard job={report.resync} /> : null}
          <InventorySection
            canTrigger={canTrigger}
            openLink={openLink}
            environment={report.environment}
          />

          <StatusCounts report={report} />
          <FailedEntries report={report} />
          <WorkerCard report={report} />
          <ByContentType report={report} />

          <DriftSection canTrigger={canTrigger} />
        </Flex>
      </Layouts.Content>
    </>
  );
};

export const SyncPage = () => {
  const t = useT();
  const { allowedActions, isLoading } = useRBAC(SYNC_PERMISSIONS);
  if (isLoading) return <Page.Loading />;
  return (
    <Layouts.Root>
      <Page.Main>
        <Page.Title>{t('sync.pageTitle', 'Location Content sync')}</Page.Title>
        {allowedActions.canRead ? (
          <Dashboard canTrigger={Boolean(allowedActions.canTrigger)} />
        ) : (
          <Page.NoPermissions />
        )}
      </Page.Main>
    </Layouts.Root>
  );
};

export const ProtectedSyncPage = () => (
  <Page.Protect permissions={PERMISSIONS.readSync}>
    <SyncPage />
  </Page.Protect>
);

export default ProtectedSyncPage;
