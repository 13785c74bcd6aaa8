import * as React from 'react';
import {
  Badge,
  Button,
  Dialog,
  Flex,
  Table,
  Tbody,
  Td,
  Th,
  Thead,
  Tr,
  Typography,
} from '@strapi/design-system';
import { ArrowClockwise } from '@strapi/icons';
import { ConfirmDialog, useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import type { DriftEntryRef, DriftGroup } from '../../../../shared/contracts/drift';
import { useT } from '../../hooks/useT';
import { useCheckDriftMutation, useDrift, useRepairDriftMutation } from '../../services/api';
import { useRequestError } from '../../services/errors';
import { Card } from './Card';
import { EntryCell } from './EntryCell';

const GROUPS: DriftGroup[] = ['missing', 'changed', 'membership', 'notOurs'];

const show = (v: unknown) =>
  v == null || v === '' ? '—' : typeof v === 'string' ? v : JSON.stringify(v);

/** Drift: the last check of the remote against Strapi, and a repair per group, each confirmed. */
export const DriftSection = ({ canTrigger }: { canTrigger: boolean }) => {
  const { formatDate, formatNumber } = useIntl();
  const t = useT();
  const { toggleNotification } = useNotification();
  const { notify } = useRequestError();
  const { data, error } = useDrift();
  const [checkDrift, checking] = useCheckDriftMutation();
  const [repairDrift, repairing] = useRepairDriftMutation();
  const [confirm, setConfirm] = React.useState<DriftGroup | null>(null);
  const busy = checking.isLoading || repairing.isLoading;

  React.useEffect(() => {
    if (error) notify(error);
  }, [error, notify]);

  const check = async () => {
    const res = await checkDrift();
    if ('error' in res) notify(res.error);
  };

  const repair = async (group: DriftGroup) => {
    const res = await repairDrift({ groups: [group] });
    if ('error' in res) return notify(res.error);
    const o = res.data.outcome;
    toggleNotification({
      type: o.errors.length ? 'warning' : 'success',
      message: t(
        'drift.repair.done',
        '{queued} queued · {deleted} deleted · {skipped} left alone · {errors} failed',
        {
          queued: Object.values(o.queued).reduce((a, b) => a + (b ?? 0), 0),
          deleted: o.deleted,
          skipped: o.skipped.length,
          errors: o.errors.length,
        }
      ),
    });
    setConfirm(null);
  };

  const report = data?.report ?? null;
  const count = (g: DriftGroup) =>
    !report
      ? 0
      : g === 'notOurs'
        ? Object.values(report.notOursByResource).reduce((a, b) => a + b, 0)
        : report.byContentType.reduce((n, c) => n + c[g], 0);
  const title: Record<DriftGroup, string> = {
    missing: t('drift.group.missing', 'Missing on the remote'),
    changed: t('drift.group.changed', 'Changed on the remote'),
    membership: t('drift.group.membership', 'List membership'),
    notOurs: t('drift.group.notOurs', 'Not ours'),
  };
  const explain: Record<DriftGroup, string> = {
    missing: t(
      'drift.confirm.missing',
      'Each entry is pushed again: its object, gone from the remote, is created again.'
    ),
    changed: t(
      'drift.confirm.changed',
      "Each entry is pushed again: Strapi's version overwrites the fields changed on the remote."
    ),
    membership: t(
      'drift.confirm.membership',
      'Each list is pushed again: the remote list gets the members of its relation.'
    ),
    notOurs: t(
      'drift.confirm.notOurs',
      'The remote objects no entry owns are deleted (never a category; ownership is checked again first). This cannot be undone.'
    ),
  };

  const entry = (r: DriftEntryRef) => (
    <EntryCell entry={r} detail={`${r.resource} ${r.remoteId}`} />
  );

  const rows = (g: DriftGroup): Array<{ key: string; cells: React.ReactNode[] }> => {
    if (!report) return [];
    if (g === 'missing')
      return report.missing.map((r) => ({
        key: `${r.contentType}|${r.documentId}|${r.locale}`,
        cells: [entry(r), null],
      }));
    if (g === 'changed')
      return report.changed.map((r) => ({
        key: `${r.contentType}|${r.documentId}|${r.locale}`,
        cells: [
          entry(r),
          <Flex key="f" direction="column" alignItems="flex-start" gap={1}>
            {r.fields.map((f) => (
              <Typography key={f.field} variant="pi">
                <b>{f.field}</b>: {show(f.before)} → {show(f.after)}
              </Typography>
            ))}
          </Flex>,
        ],
      }));
    if (g === 'membership')
      return report.membership.map((r) => ({
        key: `${r.contentType}|${r.documentId}|${r.locale}`,
        cells: [
          entry(r),
          <Typography key="m" variant="pi">
            {t('drift.membership.diff', 'absent: {absent} · extra: {extra}', {
              absent: r.absent.join(', ') || '—',
              extra: r.extra.join(', ') || '—',
            })}
          </Typography>,
        ],
      }));
    return report.notOurs.map((o) => ({
      key: `${o.resource}|${o.remoteId}`,
      cells: [
        <Typography key="n">
          {o.resource} {o.remoteId} · {o.name ?? '—'}
        </Typography>,
        o.deletable ? null : (
          <Badge key="b">{t('drift.notOurs.category', 'category: the API cannot delete it')}</Badge>
        ),
      ],
    }));
  };

  return (
    <Card data-testid="drift-section">
      <Flex direction="column" alignItems="stretch" gap={4}>
        <Flex justifyContent="space-between" alignItems="flex-start" gap={4}>
          <Flex direction="column" alignItems="flex-start" gap={1}>
            <Typography variant="delta" tag="h2">
              {t('drift.title', 'Drift: the remote against Strapi')}
            </Typography>
            <Typography variant="pi" textColor="neutral600" data-testid="drift-date">
              {report
                ? t('drift.checkedAt', 'Checked {when}, against the inventory of {inventory}', {
                    when: formatDate(report.checkedAt, { dateStyle: 'short', timeStyle: 'medium' }),
                    inventory: report.inventoryAt
                      ? formatDate(report.inventoryAt, { dateStyle: 'short', timeStyle: 'medium' })
                      : '—',
                  })
                : t('drift.never', 'The remote has not been checked yet.')}
            </Typography>
            <Typography variant="pi" textColor="neutral600">
              {data?.reconcile.cron
                ? t('drift.schedule', 'Scheduled: {cron} (repair: {repair}){last}', {
                    cron: data.reconcile.cron,
                    repair: data.reconcile.repair,
                    last: data.scheduled
                      ? ` · ${data.scheduled.outcome} ${formatDate(data.scheduled.startedAt, { dateStyle: 'short', timeStyle: 'short' })}${data.scheduled.error ? `: ${data.scheduled.error}` : ''}`
                      : '',
                  })
                : t('drift.schedule.off', 'No scheduled check (reconcile in the plugin config).')}
            </Typography>
          </Flex>
          {canTrigger ? (
            <Button
              variant="secondary"
              startIcon={<ArrowClockwise />}
              onClick={check}
              loading={checking.isLoading || Boolean(data?.checking)}
              disabled={busy || Boolean(data?.checking)}
              data-testid="drift-check"
            >
              {data?.checking ? t('drift.checking', 'Checking…') : t('drift.check', 'Check remote')}
            </Button>
          ) : null}
        </Flex>
        {report
          ? GROUPS.map((g) => {
              const n = count(g);
              const list = rows(g);
              const repairable = g !== 'notOurs' ? n > 0 : report.notOurs.some((o) => o.deletable);
              return (
                <Flex
                  key={g}
                  direction="column"
                  alignItems="stretch"
                  gap={2}
                  data-testid={`drift-group-${g}`}
                >
                  <Flex justifyContent="space-between">
                    <Typography variant="omega" fontWeight="bold">
                      {title[g]} · {formatNumber(n)}
                    </Typography>
                    {canTrigger && repairable ? (
                      <Dialog.Root
                        open={confirm === g}
                        onOpenChange={(open: boolean) => setConfirm(open ? g : null)}
                      >
                        <Dialog.Trigger>
                          <Button
                            size="S"
                            variant={g === 'notOurs' ? 'danger-light' : 'secondary'}
                            disabled={busy}
                            data-testid={`drift-repair-${g}`}
                          >
                            {g === 'notOurs'
                              ? t('drift.repair.delete', 'Delete them')
                              : t('drift.repair', 'Repair')}
                          </Button>
                        </Dialog.Trigger>
                        <ConfirmDialog
                          title={t('drift.confirm.title', 'Repair: {group}?', { group: title[g] })}
                          variant={g === 'notOurs' ? 'danger' : 'default'}
                          endAction={
                            <Button
                              fullWidth
                              variant={g === 'notOurs' ? 'danger' : 'default'}
                              onClick={() => repair(g)}
                              loading={
                                repairing.isLoading && repairing.originalArgs?.groups[0] === g
                              }
                              data-testid={`drift-repair-confirm-${g}`}
                            >
                              {t('drift.confirm.action', 'Repair')}
                            </Button>
                          }
                        >
                          {explain[g]}
                        </ConfirmDialog>
                      </Dialog.Root>
                    ) : null}
                  </Flex>
                  {list.length ? (
                    <Table colCount={2} rowCount={list.length}>
                      <Thead>
                        <Tr>
                          <Th>
                            <Typography variant="sigma">
                              {g === 'notOurs'
                                ? t('drift.col.object', 'Remote object')
                                : t('drift.col.entry', 'Entry')}
                            </Typography>
                          </Th>
                          <Th>
                            <Typography variant="sigma">
                              {t('drift.col.what', 'What differs')}
                            </Typography>
                          </Th>
                        </Tr>
                      </Thead>
                      <Tbody>
                        {list.map((r) => (
                          <Tr key={r.key}>
                            {r.cells.map((c, i) => (
                              <Td key={i} style={{ whiteSpace: 'normal' }}>
                                {c}
                              </Td>
                            ))}
                          </Tr>
                        ))}
                      </Tbody>
                    </Table>
                  ) : null}
                  {report.truncated.includes(g) ? (
                    <Typography variant="pi" textColor="neutral600">
                      {t('drift.truncated', 'The first {n} are listed.', { n: report.listLimit })}
                    </Typography>
                  ) : null}
                </Flex>
              );
            })
          : null}
      </Flex>
    </Card>
  );
};
