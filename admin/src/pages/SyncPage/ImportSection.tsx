import * as React from 'react';
import {
  Badge,
  Box,
  Button,
  Checkbox,
  Field,
  Flex,
  Modal,
  SingleSelect,
  SingleSelectOption,
  TextInput,
  Typography,
} from '@strapi/design-system';
import { useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import type {
  ImportInto,
  ImportPlan,
  ImportPlanGroup,
  ImportProgress,
} from '../../../../shared/contracts/import';
import { useT } from '../../hooks/useT';
import { useDryRunImportMutation, useImportJob, useStartImportMutation } from '../../services/api';
import { useRequestError } from '../../services/errors';
import { percent } from '../../utils/format';
import { ProgressBar } from '../../components/ProgressBar';

/** Nothing to show: an empty text, list or object. */
const empty = (v: unknown) =>
  v == null ||
  v === '' ||
  (Array.isArray(v) && !v.length) ||
  (typeof v === 'object' && !Object.keys(v).length);

/** A value of a sample entry, short enough for a line. */
const show = (value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
};

const Group = ({
  group,
  choose,
}: {
  group: ImportPlanGroup;
  /** picks the content type of a resource that several mappings take */
  choose: (contentType: string) => void;
}) => {
  const t = useT();
  const { formatNumber } = useIntl();
  return (
    <Box
      padding={3}
      hasRadius
      borderColor="neutral200"
      borderStyle="solid"
      borderWidth="1px"
      data-testid={`import-group-${group.resource}`}
    >
      <Flex direction="column" alignItems="stretch" gap={2}>
        <Typography fontWeight="bold">
          {group.contentType
            ? t('import.group', '{count} {resource} → {contentType}', {
                count: formatNumber(group.count),
                resource: group.resource,
                contentType: group.contentType,
              })
            : t('import.groupUnmapped', '{count} {resource}: no mapping takes them', {
                count: formatNumber(group.count),
                resource: group.resource,
              })}
          {group.wouldFail
            ? ` · ${t('import.wouldFail', '{count} would fail', { count: formatNumber(group.wouldFail) })}`
            : ''}
        </Typography>
        {group.candidates.length > 1 ? (
          <Field.Root
            hint={t(
              'import.chooseHint',
              'Several content types are mapped to {resource}: the objects go into the one chosen here.',
              { resource: group.resource }
            )}
          >
            <Field.Label>
              {t('import.choose', 'Import {resource} into', { resource: group.resource })}
            </Field.Label>
            <SingleSelect
              value={group.contentType ?? undefined}
              onChange={(v: string | number) => choose(String(v))}
            >
              {group.candidates.map((c) => (
                <SingleSelectOption key={c} value={c}>
                  {c}
                </SingleSelectOption>
              ))}
            </SingleSelect>
            <Field.Hint />
          </Field.Root>
        ) : null}
        {group.blocked && group.contentType ? (
          <Typography textColor="danger600">{group.blocked}</Typography>
        ) : null}
        {group.notImportable.length ? (
          <Box>
            <Typography variant="sigma" textColor="warning600">
              {t('import.notImportable', 'Fields that cannot be imported')}
            </Typography>
            {group.notImportable.map((f) => (
              <Typography key={f.field} tag="p" data-testid="import-not-importable">
                {f.field}
                {f.path ? ` (${f.path})` : ''}: {f.reason}
              </Typography>
            ))}
          </Box>
        ) : null}
        {group.samples.map((s) => (
          <Box key={s.remoteId} paddingLeft={2} data-testid="import-sample">
            <Typography variant="omega" fontWeight="semiBold">
              {s.name ?? '—'} ({group.resource} {s.remoteId})
            </Typography>
            {Object.entries(s.data)
              .filter(([, v]) => !empty(v))
              .map(([k, v]) => (
                <Typography key={k} tag="p" variant="pi" textColor="neutral600">
                  {k}: {show(v)}
                </Typography>
              ))}
            {s.problems.map((p) => (
              <Typography key={p} tag="p" variant="pi" textColor="danger600">
                {t('import.problem', 'Not imported: {reason}', { reason: p })}
              </Typography>
            ))}
            {s.warnings.map((w) => (
              <Typography key={w} tag="p" variant="pi" textColor="warning600">
                {t('import.warning', 'Left out: {reason}', { reason: w })}
              </Typography>
            ))}
          </Box>
        ))}
      </Flex>
    </Box>
  );
};

/** The import's dry run in a modal, with the job's options; "Import" starts the job. */
const ImportModal = ({ onClose }: { onClose: () => void }) => {
  const t = useT();
  const { formatDate, formatNumber } = useIntl();
  const { notify } = useRequestError();
  const { toggleNotification } = useNotification();
  const [dryRun, planning] = useDryRunImportMutation();
  const [startImport, starting] = useStartImportMutation();
  const [plan, setPlan] = React.useState<ImportPlan | null>(null);
  const [locale, setLocale] = React.useState('');
  const [publish, setPublish] = React.useState(false);
  const [into, setInto] = React.useState<ImportInto>({});

  // Planned again for each choice of content type: the samples and fields are that type's.
  React.useEffect(() => {
    (async () => {
      const res = await dryRun({ into });
      if ('error' in res) return notify(res.error);
      setPlan(res.data.plan);
      setLocale((l) => l || (res.data.plan.locale ?? ''));
    })();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [into]);

  const start = async () => {
    const res = await startImport({ locale: locale || null, publish, into });
    if ('error' in res) return notify(res.error);
    toggleNotification({
      type: 'success',
      message: t('import.started', 'The import runs in the background.'),
    });
    onClose();
  };

  return (
    <Modal.Root open onOpenChange={(open: boolean) => !open && onClose()}>
      <Modal.Content>
        <Modal.Header>
          <Modal.Title>{t('import.title', 'Import into Strapi')}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {!plan ? (
            <Typography>{t('import.planning', 'Reading the remote account…')}</Typography>
          ) : (
            <Flex direction="column" alignItems="stretch" gap={4} data-testid="import-plan">
              <Typography>
                {t(
                  'import.summary',
                  '{total, plural, one {# remote object} other {# remote objects}} that no entry owns would become entries, each linked to its object: publishing one unchanged sends nothing. From the walk of {when}.',
                  {
                    total: plan.total,
                    when: formatDate(plan.inventoryCompleteAt, {
                      dateStyle: 'medium',
                      timeStyle: 'short',
                    }),
                  }
                )}
              </Typography>
              {plan.groups.map((g) => (
                <Group
                  key={g.resource}
                  group={g}
                  choose={(uid) => setInto((was) => ({ ...was, [g.resource]: uid }))}
                />
              ))}
              <Field.Root
                hint={t('import.localeHint', 'For localized content types; others have none.')}
              >
                <Field.Label>{t('import.locale', 'Locale of the entries')}</Field.Label>
                <TextInput
                  value={locale}
                  onChange={(e: React.ChangeEvent<HTMLInputElement>) => setLocale(e.target.value)}
                  data-testid="import-locale"
                />
                <Field.Hint />
              </Field.Root>
              <Checkbox
                checked={publish}
                onCheckedChange={(v: boolean | 'indeterminate') => setPublish(v === true)}
                data-testid="import-publish"
              >
                {t('import.publish', 'Publish the entries at once (default: drafts)')}
              </Checkbox>
              <Typography variant="pi" textColor="neutral600">
                {t(
                  'import.samplesNote',
                  'A few entries per resource are shown as they would be written; {n} objects in all.',
                  { n: formatNumber(plan.total) }
                )}
              </Typography>
            </Flex>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Modal.Close>
            <Button variant="tertiary">{t('import.cancel', 'Cancel')}</Button>
          </Modal.Close>
          <Button
            onClick={start}
            loading={starting.isLoading}
            disabled={!plan || planning.isLoading || !plan.total}
            data-testid="import-start"
          >
            {t('import.start', 'Import {count, plural, one {# object} other {# objects}}', {
              count: plan?.total ?? 0,
            })}
          </Button>
        </Modal.Footer>
      </Modal.Content>
    </Modal.Root>
  );
};

/** The import job running or the last one: its progress and what it could not import. */
const ImportJob = ({ job }: { job: ImportProgress }) => {
  const t = useT();
  const { formatNumber } = useIntl();
  const finished = job.counts.done + job.counts.failed + job.counts.skipped;
  const running = job.state === 'running';
  const value = job.state === 'done' ? 100 : percent(finished, job.counts.total);
  const state: Record<ImportProgress['state'], string> = {
    running: t('import.state.running', 'Importing'),
    done: t('import.state.done', 'Imported'),
    failed: t('import.state.failed', 'Stopped'),
    cancelled: t('import.state.cancelled', 'Cancelled'),
  };
  return (
    <Flex direction="column" alignItems="stretch" gap={2} data-testid="import-job">
      <Flex gap={2}>
        <Typography variant="sigma">{t('import.job', 'Import into Strapi')}</Typography>
        <Badge
          variant={running ? 'secondary' : job.state === 'done' ? 'success' : 'danger'}
          data-testid="import-state"
        >
          {running && job.phase ? `${state.running}: ${job.phase}` : state[job.state]}
        </Badge>
      </Flex>
      <ProgressBar
        height="0.75rem"
        value={value}
        label={t('import.progress', 'Import progress')}
        stopped={job.state === 'failed'}
        failures={job.counts.failed}
        running={running}
      />
      <Typography data-testid="import-counts">
        {t(
          'import.counts',
          '{finished} of {total} objects · {done} imported · {failed} failed · {skipped} skipped',
          {
            finished: formatNumber(finished),
            total: formatNumber(job.counts.total),
            done: formatNumber(job.counts.done),
            failed: formatNumber(job.counts.failed),
            skipped: formatNumber(job.counts.skipped),
          }
        )}
      </Typography>
      {job.error ? (
        <Typography textColor="danger600" data-testid="import-error">
          {job.error}
        </Typography>
      ) : null}
      {job.issues.length ? (
        <Box data-testid="import-issues">
          <Typography variant="sigma" textColor="neutral600">
            {t('import.issues', 'Not imported, or imported without part of it ({count})', {
              count: formatNumber(job.issueCount),
            })}
          </Typography>
          {job.issues.map((i) => (
            <Typography
              key={`${i.resource}:${i.remoteId}`}
              tag="p"
              variant="pi"
              textColor={i.imported ? 'warning600' : 'danger600'}
              data-testid="import-issue"
            >
              {i.name ?? '—'} ({i.resource} {i.remoteId}):{' '}
              {i.imported
                ? t('import.partly', 'imported, but: {reason}', { reason: i.reason })
                : t('import.failedOne', 'not imported: {reason}', { reason: i.reason })}
            </Typography>
          ))}
        </Box>
      ) : null}
    </Flex>
  );
};

/** "Import into Strapi" in the Remote account card: the button, the dry run, the job. */
export const ImportSection = ({
  canTrigger,
  disabled,
}: {
  canTrigger: boolean;
  disabled: boolean;
}) => {
  const t = useT();
  const { data: job } = useImportJob(canTrigger);
  const [open, setOpen] = React.useState(false);
  if (!canTrigger) return null;
  const running = job?.state === 'running';
  return (
    <Flex direction="column" alignItems="stretch" gap={3}>
      <Flex gap={2} wrap="wrap">
        <Button
          variant="secondary"
          onClick={() => setOpen(true)}
          disabled={disabled || running}
          data-testid="import-open"
        >
          {t('import.open', 'Import into Strapi')}
        </Button>
        <Typography variant="pi" textColor="neutral600">
          {t(
            'import.hint',
            'Objects no entry owns become entries (drafts by default), linked to their object.'
          )}
        </Typography>
      </Flex>
      {job ? <ImportJob job={job} /> : null}
      {open ? <ImportModal onClose={() => setOpen(false)} /> : null}
    </Flex>
  );
};
