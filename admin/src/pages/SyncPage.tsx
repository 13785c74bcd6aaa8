import * as React from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
  Dialog,
  Flex,
  Grid,
  Link,
  Modal,
  Table,
  Tbody,
  Td,
  Th,
  Thead,
  Tr,
  Typography,
} from '@strapi/design-system';
import { ArrowClockwise, Eye, WarningCircle } from '@strapi/icons';
import {
  ConfirmDialog,
  Layouts,
  Page,
  useFetchClient,
  useNotification,
  useRBAC,
} from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { Link as RouterLink } from 'react-router-dom';
import { RecordingAlert } from '../components/RecordingAlert';
import { DriftSection } from '../components/DriftSection';
import { InventorySection, UnownedWarning } from '../components/InventorySection';
import { EnvironmentBanner } from '../components/EnvironmentBanner';
import { PushTargetLine } from '../components/PushTargetLine';
import { StatusBadge, useStatusLabel } from '../components/StatusBadge';
import { useMappings } from '../hooks/useMappings';
import { PERMISSIONS, SYNC_PERMISSIONS } from '../permissions';
import type { MappingView } from '../../../shared/contracts/mappings';
import {
  STATUSES,
  type DryRunPlan,
  type LabelledKey,
  type ResyncProgress,
  type SyncStatusReport,
} from '../../../shared/contracts/sync';
import { API, entryPath, errorMessage } from '../utils/api';
import { formatDuration, percent } from '../utils/format';
import { getTranslation } from '../utils/getTranslation';

/** Polling: every second while something moves (resync, queue), else every few seconds. */
const FAST_MS = 1000;
const SLOW_MS = 5000;

type T = (id: string, defaultMessage: string, values?: Record<string, any>) => string;

const useT = (): T => {
  const { formatMessage } = useIntl();
  return (id, defaultMessage, values) =>
    formatMessage({ id: getTranslation(id), defaultMessage }, values);
};

const Card = ({ children, ...props }: React.ComponentProps<typeof Box>) => (
  <Box background="neutral0" hasRadius shadow="filterShadow" padding={6} {...props}>
    {children}
  </Box>
);

const Stat = ({
  label,
  value,
  tone,
  testId,
}: {
  label: string;
  value: React.ReactNode;
  tone?: string;
  testId?: string;
}) => (
  <Card padding={4} height="100%" width="100%">
    <Flex direction="column" alignItems="flex-start" gap={1}>
      <Typography variant="sigma" textColor="neutral600">
        {label}
      </Typography>
      <Typography variant="beta" textColor={tone ?? 'neutral800'} data-testid={testId}>
        {value}
      </Typography>
    </Flex>
  </Card>
);

const ResyncCard = ({ job }: { job: ResyncProgress }) => {
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
          <Box
            flex="1"
            background="neutral150"
            hasRadius
            height="1rem"
            overflow="hidden"
            role="progressbar"
            aria-label={t('resync.progress', 'Resync progress')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={value}
          >
            <Box
              background={
                job.state === 'failed'
                  ? 'danger500'
                  : job.failed
                    ? 'warning500'
                    : running
                      ? 'primary600'
                      : 'success500'
              }
              height="100%"
              style={{ width: `${value}%` }}
            />
          </Box>
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

const DryRunModal = ({
  plan,
  names,
  onClose,
}: {
  plan: DryRunPlan;
  names: (uid: string) => string;
  onClose: () => void;
}) => {
  const t = useT();
  const section = (title: string, keys: Array<LabelledKey & { reason?: string }>, tone: string) => (
    <Box>
      <Typography variant="delta" textColor={tone}>
        {title} ({keys.length}
        {keys.length >= plan.truncatedAt ? '+' : ''})
      </Typography>
      {keys.length ? (
        <Box paddingTop={2}>
          {keys.map((k) => (
            <Box key={`${k.contentType}|${k.documentId}|${k.locale}`} paddingBottom={1}>
              <Typography tag="p">
                <Typography fontWeight="semiBold">{k.label ?? k.documentId}</Typography>
                <Typography variant="pi" textColor="neutral600">
                  {` · ${names(k.contentType)}${k.locale ? ` · ${k.locale}` : ''}`}
                </Typography>
              </Typography>
              {k.reason ? (
                <Typography tag="p" variant="pi" textColor="danger600">
                  {k.reason}
                </Typography>
              ) : null}
            </Box>
          ))}
        </Box>
      ) : null}
    </Box>
  );
  return (
    <Modal.Root open onOpenChange={(open: boolean) => !open && onClose()}>
      <Modal.Content>
        <Modal.Header>
          <Modal.Title>{t('dryRun.title', 'Dry run: what a resync would do')}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Flex direction="column" alignItems="stretch" gap={4} data-testid="dry-run">
            {section(t('dryRun.create', 'Create'), plan.create, 'success600')}
            {section(t('dryRun.update', 'Update'), plan.update, 'primary600')}
            {section(t('dryRun.delete', 'Delete'), plan.delete, 'warning600')}
            {section(t('dryRun.failed', 'Cannot be pushed'), plan.failed, 'danger600')}
            <Typography textColor="neutral600">
              {t(
                'dryRun.unchanged',
                '{count, plural, one {# entry is} other {# entries are}} already up to date.',
                { count: plan.unchanged }
              )}{' '}
              {t('dryRun.truncated', 'Each list shows at most {n} entries.', {
                n: plan.truncatedAt,
              })}
            </Typography>
          </Flex>
        </Modal.Body>
        <Modal.Footer>
          <Modal.Close>
            <Button variant="tertiary">{t('dryRun.close', 'Close')}</Button>
          </Modal.Close>
        </Modal.Footer>
      </Modal.Content>
    </Modal.Root>
  );
};

const Dashboard = ({ canTrigger }: { canTrigger: boolean }) => {
  const t = useT();
  const { formatDate, formatNumber } = useIntl();
  const statusLabel = useStatusLabel();
  const { get, post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { mappings } = useMappings(true);
  const [report, setReport] = React.useState<SyncStatusReport | null>(null);
  const [loadError, setLoadError] = React.useState<string | null>(null);
  const [confirming, setConfirming] = React.useState(false);
  const [openLink, setOpenLink] = React.useState(0);
  const [busy, setBusy] = React.useState<'resync' | 'retry' | 'dryRun' | null>(null);
  const [plan, setPlan] = React.useState<DryRunPlan | null>(null);

  const refresh = React.useCallback(async () => {
    try {
      const { data } = await get<SyncStatusReport>(API.status);
      setReport(data);
      setLoadError(null);
    } catch (err) {
      if ((err as any)?.name === 'AbortError') return;
      setLoadError(errorMessage(err));
    }
  }, [get]);

  const running = report?.resync?.state === 'running';
  const moving =
    running || Boolean(report && (report.queue.depth > 0 || report.queue.inFlight > 0));

  React.useEffect(() => {
    refresh();
  }, [refresh]);

  // One timer at a time; the next poll is scheduled after the previous answer, so slow answers never pile up.
  React.useEffect(() => {
    if (!report) return;
    const timer = setTimeout(refresh, moving ? FAST_MS : SLOW_MS);
    return () => clearTimeout(timer);
  }, [report, moving, refresh]);

  const byUid = React.useMemo(
    () => new Map<string, MappingView>((mappings ?? []).map((m) => [m.contentType, m])),
    [mappings]
  );
  const names = (uid: string) => byUid.get(uid)?.displayName ?? uid;

  if (loadError && !report) return <Page.Error content={loadError} />;
  if (!report) return <Page.Loading />;

  const startResync = async () => {
    setBusy('resync');
    try {
      const { data } = await post<{ job: ResyncProgress }>(API.resync, { dryRun: false });
      setReport((r) => (r ? { ...r, resync: data.job } : r));
      setConfirming(false);
      toggleNotification({
        type: 'success',
        message: t(
          'resync.started.notice',
          'Resync started. You can leave this page: it runs on the server.'
        ),
      });
      refresh();
    } catch (err) {
      toggleNotification({ type: 'danger', message: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  };

  const retryFailed = async () => {
    setBusy('retry');
    try {
      const { data } = await post<{ queued: number }>(API.retryFailed, {});
      toggleNotification({
        type: 'success',
        message: t(
          'retry.queued',
          '{count, plural, =0 {Nothing to retry.} one {# entry queued again.} other {# entries queued again.}}',
          { count: data.queued }
        ),
      });
      refresh();
    } catch (err) {
      toggleNotification({ type: 'danger', message: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  };

  const dryRun = async () => {
    setBusy('dryRun');
    try {
      const { data } = await post<{ plan: DryRunPlan }>(API.resync, { dryRun: true });
      setPlan(data.plan);
    } catch (err) {
      toggleNotification({ type: 'danger', message: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  };

  const pausedUntil =
    report.rateLimit.pausedUntil && new Date(report.rateLimit.pausedUntil) > new Date()
      ? report.rateLimit.pausedUntil
      : null;

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
            <Flex gap={2}>
              <Button
                variant="tertiary"
                startIcon={<Eye />}
                onClick={dryRun}
                loading={busy === 'dryRun'}
                disabled={busy !== null}
              >
                {t('sync.dryRun', 'Dry run')}
              </Button>
              <Button
                variant="secondary"
                startIcon={<WarningCircle />}
                onClick={retryFailed}
                loading={busy === 'retry'}
                disabled={busy !== null || report.counts.failed === 0}
              >
                {t('sync.retryFailed', 'Retry failed ({count})', {
                  count: formatNumber(report.counts.failed),
                })}
              </Button>
              <Dialog.Root open={confirming} onOpenChange={setConfirming}>
                <Dialog.Trigger>
                  <Button
                    startIcon={<ArrowClockwise />}
                    disabled={running || busy !== null || !report.configured}
                    data-testid="resync-button"
                  >
                    {running
                      ? t('sync.resyncRunning', 'Resync running…')
                      : t('sync.resync', 'Resync')}
                  </Button>
                </Dialog.Trigger>
                <ConfirmDialog
                  title={t('sync.resync.confirm.title', 'Resync everything?')}
                  variant="default"
                  endAction={
                    <Button
                      fullWidth
                      onClick={startResync}
                      loading={busy === 'resync'}
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
                    onLink={() => (setConfirming(false), setOpenLink((n) => n + 1))}
                  />
                </ConfirmDialog>
              </Dialog.Root>
            </Flex>
          ) : null
        }
      />
      <Layouts.Content>
        <Flex direction="column" alignItems="stretch" gap={6}>
          <EnvironmentBanner environment={report.environment} />
          <PushTargetLine target={report.target} environment={report.environment} />
          {!report.configured ? (
            <Alert
              variant="warning"
              closeLabel=""
              title={t('sync.notConfigured.title', 'Not connected')}
              action={
                <Link tag={RouterLink} to="/settings/location-content">
                  {t('sync.notConfigured.link', 'Open the settings')}
                </Link>
              }
            >
              {t(
                'sync.notConfigured.body',
                'Changes are queued, but nothing is pushed until the API credentials are set.'
              )}
            </Alert>
          ) : null}
          {report.recording ? <RecordingAlert failure={report.recording} /> : null}
          {loadError ? (
            <Alert variant="danger" closeLabel="" title={t('sync.stale', 'Cannot refresh')}>
              {loadError}
            </Alert>
          ) : null}
          {report.resync ? <ResyncCard job={report.resync} /> : null}
          <InventorySection canTrigger={canTrigger} openLink={openLink} />

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
                label={t('sync.queue', 'In the queue')}
                value={formatNumber(report.queue.depth)}
                testId="queue-depth"
              />
            </Grid.Item>
          </Grid.Root>

          <Card data-testid="failed-card">
            <Flex direction="column" alignItems="stretch" gap={4}>
              <Flex justifyContent="space-between">
                <Typography variant="delta" tag="h2">
                  {t('sync.failed', 'Failed entries')}
                </Typography>
                {report.counts.failed > report.failed.length ? (
                  <Typography variant="pi" textColor="neutral600">
                    {t('sync.failed.more', 'Showing {shown} of {total}', {
                      shown: report.failed.length,
                      total: report.counts.failed,
                    })}
                  </Typography>
                ) : null}
              </Flex>
              {report.failed.length === 0 ? (
                <Typography textColor="neutral600">
                  {t('sync.failed.none', 'Nothing failed.')}
                </Typography>
              ) : (
                <Table colCount={5} rowCount={report.failed.length + 1} data-testid="failed-table">
                  <Thead>
                    <Tr>
                      <Th>
                        <Typography variant="sigma">{t('sync.failed.entry', 'Entry')}</Typography>
                      </Th>
                      <Th>
                        <Typography variant="sigma">{t('sync.failed.status', 'Status')}</Typography>
                      </Th>
                      <Th>
                        <Typography variant="sigma">{t('sync.failed.error', 'Error')}</Typography>
                      </Th>
                      <Th>
                        <Typography variant="sigma">
                          {t('sync.failed.attempts', 'Attempts')}
                        </Typography>
                      </Th>
                      <Th>
                        <Typography variant="sigma">{t('sync.failed.when', 'When')}</Typography>
                      </Th>
                    </Tr>
                  </Thead>
                  <Tbody>
                    {report.failed.map((f) => (
                      <Tr key={`${f.contentType}|${f.documentId}|${f.locale}`}>
                        <Td>
                          <Flex direction="column" alignItems="flex-start">
                            <Link
                              tag={RouterLink}
                              to={entryPath(f, byUid.get(f.contentType)?.kind ?? 'collectionType')}
                            >
                              {f.label ?? f.documentId}
                            </Link>
                            <Typography variant="pi" textColor="neutral600">
                              {names(f.contentType)}
                              {f.locale ? ` · ${f.locale}` : ''} · {f.documentId}
                            </Typography>
                            {f.viewUrl ? (
                              <Link href={f.viewUrl} isExternal>
                                {t('panel.viewUrl', 'Open on the map')}
                              </Link>
                            ) : null}
                          </Flex>
                        </Td>
                        <Td>
                          <StatusBadge status="failed" />
                        </Td>
                        <Td style={{ whiteSpace: 'normal', maxWidth: '40rem' }}>
                          <Typography textColor="danger600">{f.reason}</Typography>
                        </Td>
                        <Td>
                          <Typography>{f.attempts}</Typography>
                        </Td>
                        <Td>
                          <Typography variant="pi">
                            {f.at
                              ? formatDate(f.at, { dateStyle: 'short', timeStyle: 'medium' })
                              : '—'}
                          </Typography>
                        </Td>
                      </Tr>
                    ))}
                  </Tbody>
                </Table>
              )}
            </Flex>
          </Card>
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

          <Card>
            <Flex direction="column" alignItems="stretch" gap={4}>
              <Typography variant="delta" tag="h2">
                {t('sync.byType', 'By content type')}
              </Typography>
              <Table colCount={2 + STATUSES.length} rowCount={report.byContentType.length + 1}>
                <Thead>
                  <Tr>
                    <Th>
                      <Typography variant="sigma">
                        {t('sync.byType.contentType', 'Content type')}
                      </Typography>
                    </Th>
                    <Th>
                      <Typography variant="sigma">
                        {t('sync.byType.resource', 'Sent as')}
                      </Typography>
                    </Th>
                    {STATUSES.map((s) => (
                      <Th key={s}>
                        <Typography variant="sigma">{statusLabel(s)}</Typography>
                      </Th>
                    ))}
                  </Tr>
                </Thead>
                <Tbody>
                  {report.byContentType.map((row) => (
                    <Tr key={row.contentType}>
                      <Td>
                        <Typography fontWeight="bold">{names(row.contentType)}</Typography>
                      </Td>
                      <Td>
                        <Badge>{row.resource}</Badge>
                      </Td>
                      {STATUSES.map((s) => (
                        <Td key={s}>
                          <Typography
                            textColor={s === 'failed' && row.counts[s] ? 'danger600' : 'neutral800'}
                          >
                            {formatNumber(row.counts[s] ?? 0)}
                          </Typography>
                        </Td>
                      ))}
                    </Tr>
                  ))}
                </Tbody>
              </Table>
            </Flex>
          </Card>

          <DriftSection
            canTrigger={canTrigger}
            names={names}
            kindOf={(uid) => byUid.get(uid)?.kind ?? 'collectionType'}
          />
        </Flex>
      </Layouts.Content>
      {plan ? <DryRunModal plan={plan} names={names} onClose={() => setPlan(null)} /> : null}
    </>
  );
};

export const SyncPage = () => {
  const { formatMessage } = useIntl();
  const { allowedActions, isLoading } = useRBAC(SYNC_PERMISSIONS);
  if (isLoading) return <Page.Loading />;
  return (
    <Layouts.Root>
      <Page.Main>
        <Page.Title>
          {formatMessage({
            id: getTranslation('sync.pageTitle'),
            defaultMessage: 'Location Content sync',
          })}
        </Page.Title>
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
