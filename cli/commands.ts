import type { Core } from '@strapi/strapi';
import type { DriftGroup, DriftReport, RepairOutcome } from '../shared/contracts/drift';
import type { ImportPlan, ImportProgress } from '../shared/contracts/import';
import type { LinkProposal } from '../shared/contracts/inventory';
import type {
  DryRunPlan,
  ResyncProgress,
  SyncService,
  SyncStatusReport,
} from '../shared/contracts/sync';
import { DRIFT_GROUPS, type CommandName, type Parsed } from './args';
import { RunError } from './app';
import { firstLine, type Progress } from './output';

/** What a command gives back: its JSON document, its lines for a person, its exit code. */
export interface Outcome {
  code: 0 | 1;
  data: Record<string, unknown>;
  lines: string[];
}

export interface Context {
  strapi: Core.Strapi;
  args: Parsed;
  progress: Progress;
}

const PLUGIN = 'location-content';
const LISTED = 20;

const syncOf = (strapi: Core.Strapi) =>
  strapi.plugin(PLUGIN).service('sync') as unknown as SyncService;
/** The plugin's worker: the CLI starts it itself when its command waits for pushes. */
const workerOf = (strapi: Core.Strapi) =>
  strapi.plugin(PLUGIN).service('worker') as unknown as { start(): void };

const keyLabel = (k: {
  contentType: string;
  documentId: string;
  locale?: string | null;
  label?: string | null;
}) =>
  `${k.contentType} ${k.documentId}${k.locale ? ` (${k.locale})` : ''}${k.label ? ` "${k.label}"` : ''}`;

const list = <T>(items: T[], total: number, line: (item: T) => string) => [
  ...items.slice(0, LISTED).map((i) => `  ${line(i)}`),
  ...(total > Math.min(items.length, LISTED)
    ? [
        `  … and ${total - Math.min(items.length, LISTED)} more (--json lists up to ${items.length})`,
      ]
    : []),
];

const countsLine = (c: SyncStatusReport['counts']) =>
  `synced ${c.synced} · pending ${c.pending} · failed ${c.failed} · skipped ${c.skipped} · orphaned ${c.orphaned}`;

const failedLines = (report: SyncStatusReport) =>
  report.counts.failed
    ? [
        `failed entries (${report.counts.failed}):`,
        ...list(report.failed, report.counts.failed, (f) => `${keyLabel(f)}: ${f.reason}`),
      ]
    : [];

/** Pushes are made where this process runs only if the plugin may push here: else --wait never ends. */
async function assertCanPush(strapi: Core.Strapi) {
  const settings = strapi.plugin(PLUGIN).service('settings') as unknown as {
    canPush(): Promise<boolean>;
  };
  if (await settings.canPush()) return;
  const report = await syncOf(strapi).status({ failedLimit: 0 });
  // An unreadable secret leaves the API unconfigured: its own sentence says what to do.
  const why = report.credentialsError
    ? report.credentialsError.replace(/\.$/, '')
    : !report.configured
      ? 'the Location Content API is not configured'
      : !report.environment.pushing
        ? `environment "${report.environment.name}" is not in pushIn (${report.environment.pushIn?.join(', ')})`
        : 'syncEnabled is false';
  throw new RunError(`nothing is pushed from this app (${why}): --wait would never end`);
}

/** Runs `work` while `show` draws what the status says of it, every 300 ms. */
async function showing<T>(
  ctx: Context,
  show: (status: SyncStatusReport) => void,
  work: () => Promise<T>
): Promise<T> {
  const sync = syncOf(ctx.strapi);
  let stop = false;
  const ticker = (async () => {
    while (!stop) {
      const s = await sync.status({ failedLimit: 0 }).catch(() => null);
      if (s && !stop) show(s);
      await new Promise((r) => setTimeout(r, 300));
    }
  })();
  try {
    return await work();
  } finally {
    stop = true;
    await ticker;
    ctx.progress.end();
  }
}

/** Waits for the outbox to drain (this process's worker and any server's), showing the resync's progress. */
async function waitForPushes(ctx: Context, label: string) {
  const sync = syncOf(ctx.strapi);
  // The CLI's Strapi starts no worker (server/src/run-mode.ts): this one drains the outbox beside
  // any server's, each row claimed under the lease by one of them.
  workerOf(ctx.strapi).start();
  const show = ({ resync: job, queue }: SyncStatusReport) => {
    if (job?.state === 'running')
      ctx.progress.update(label, job.done + job.failed + job.skipped, job.total || null);
    else ctx.progress.update(`${label} (queue)`, queue.depth, null);
  };
  await showing(ctx, show, async () => {
    try {
      await sync.idle({ timeoutMs: ctx.args.timeoutMs });
    } catch (e) {
      throw new RunError(`${firstLine(e)} (--timeout ${ctx.args.timeoutMs / 1000} s)`);
    }
  });
}

/** Runs `work` while the inventory walk's progress is shown. */
async function withWalkProgress<T>(ctx: Context, work: Promise<T>): Promise<T> {
  const show = ({ inventory }: SyncStatusReport) => {
    if (inventory.state !== 'running') return;
    const objects = inventory.phases.reduce((n, p) => n + p.objects, 0);
    ctx.progress.update(
      `walking the remote account (${inventory.phase ?? '…'}), objects`,
      objects,
      null
    );
  };
  return showing(ctx, show, async () => {
    try {
      return await work;
    } catch (e) {
      throw new RunError(`the remote account could not be walked: ${firstLine(e)}`);
    }
  });
}

async function status(ctx: Context): Promise<Outcome> {
  const sync = syncOf(ctx.strapi);
  const report = await sync.status({ failedLimit: ctx.args.failedLimit });
  const kept = await sync.drift();
  const lines = [
    `account: ${report.target.host ?? 'not configured'}${report.target.clientIdLast4 ? ` (client …${report.target.clientIdLast4})` : ''}, environment ${report.environment.name}${report.environment.pushing ? '' : ' (not in pushIn: nothing is pushed)'}`,
    ...(report.credentialsError ? [`credentials: ${report.credentialsError}`] : []),
    countsLine(report.counts),
    `queue: ${report.queue.depth} waiting (${report.queue.due} due, ${report.queue.inFlight} in flight here)`,
  ];
  if (report.resync) {
    const r = report.resync;
    lines.push(
      `last resync: ${r.state}, ${r.total} entries (${r.done} pushed, ${r.failed} failed, ${r.skipped} unchanged or waiting), started ${r.startedAt}${r.error ? `: ${r.error}` : ''}`
    );
  }
  if (kept.report)
    lines.push(`last drift check: ${kept.report.checkedAt}, ${driftSummary(kept.report)}`);
  lines.push(...failedLines(report));
  return {
    code: report.counts.failed > 0 ? 1 : 0,
    data: { status: report, lastCheck: kept.report ? driftCounts(kept.report) : null },
    lines,
  };
}

const driftCounts = (report: DriftReport): Record<DriftGroup, number> => ({
  missing: report.byContentType.reduce((n, c) => n + c.missing, 0),
  changed: report.byContentType.reduce((n, c) => n + c.changed, 0),
  membership: report.byContentType.reduce((n, c) => n + c.membership, 0),
  notOurs: Object.values(report.notOursByResource).reduce((a, b) => a + b, 0),
});

const driftSummary = (report: DriftReport) => {
  const c = driftCounts(report);
  return `missing ${c.missing} · changed ${c.changed} · membership ${c.membership} · not ours ${c.notOurs}`;
};

async function resync(ctx: Context): Promise<Outcome> {
  const sync = syncOf(ctx.strapi);
  if (ctx.args.dryRun) {
    const plan = (await sync.resync({ dryRun: true })) as DryRunPlan;
    return {
      code: plan.failed.length ? 1 : 0,
      data: { plan },
      lines: [
        `a resync would create ${plan.create.length}, update ${plan.update.length}, delete ${plan.delete.length}; ${plan.unchanged} unchanged; ${plan.failed.length} would fail${plan.failed.length >= plan.truncatedAt ? ' (or more)' : ''}`,
        ...list(plan.failed, plan.failed.length, (f) => `${keyLabel(f)}: ${f.reason}`),
        'nothing was sent',
      ],
    };
  }
  if (ctx.args.wait) await assertCanPush(ctx.strapi);
  const started = (await sync.resync()) as ResyncProgress;
  // Pushing starts while the listing goes on.
  if (ctx.args.wait) workerOf(ctx.strapi).start();
  // This process lists the entries into the outbox: it must not exit before the listing is over.
  await (ctx.strapi.plugin(PLUGIN).service('resync') as { running(): Promise<void> | null })
    .running()
    ?.catch(() => undefined);
  if (!ctx.args.wait) {
    const job = (await sync.status({ failedLimit: 0 })).resync ?? started;
    if (job.state === 'failed') throw new RunError(job.error ?? 'the resync failed');
    return {
      code: 0,
      data: { job },
      lines: [
        `resync ${job.id}: ${job.total} entries queued; a running Strapi on this database pushes them (or the next one to start; --wait pushes them from here)`,
      ],
    };
  }
  await waitForPushes(ctx, 'resync');
  const report = await sync.status({ failedLimit: ctx.args.failedLimit });
  const job = report.resync ?? started;
  if (job.state === 'failed') throw new RunError(job.error ?? 'the resync failed');
  return {
    code: report.counts.failed > 0 ? 1 : 0,
    data: { job, status: report },
    lines: [
      `resync ${job.id} ${job.state}: ${job.total} entries`,
      countsLine(report.counts),
      ...failedLines(report),
    ],
  };
}

async function check(ctx: Context): Promise<Outcome> {
  const sync = syncOf(ctx.strapi);
  const report = await withWalkProgress(ctx, sync.check());
  const counted = ctx.args.groups.length ? ctx.args.groups : [...DRIFT_GROUPS];
  const counts = driftCounts(report);
  const found = counted.reduce((n, g) => n + counts[g], 0);
  const lines = [
    `drift: ${driftSummary(report)} (inventory of ${report.inventoryAt ?? '?'})`,
    ...(report.missing.length
      ? [
          'missing on the remote:',
          ...list(
            report.missing,
            counts.missing,
            (m) => `${keyLabel(m)} → ${m.resource} ${m.remoteId}`
          ),
        ]
      : []),
    ...(report.changed.length
      ? [
          'changed on the remote:',
          ...list(
            report.changed,
            counts.changed,
            (m) => `${keyLabel(m)} → ${m.resource} ${m.remoteId}`
          ),
        ]
      : []),
    ...(report.membership.length
      ? [
          'list membership differs:',
          ...list(
            report.membership,
            counts.membership,
            (m) => `${keyLabel(m)} → list ${m.remoteId}`
          ),
        ]
      : []),
    ...(report.notOurs.length
      ? [
          'not ours (no entry owns them):',
          ...list(
            report.notOurs,
            counts.notOurs,
            (m) => `${m.resource} ${m.remoteId}${m.name ? ` "${m.name}"` : ''}`
          ),
        ]
      : []),
    found
      ? `drift found in ${counted.filter((g) => counts[g]).join(', ')}: \`location-content repair --groups …\` repairs it`
      : `no drift${ctx.args.groups.length ? ` in ${counted.join(', ')}` : ''}`,
  ];
  return { code: found ? 1 : 0, data: { report, counts, counted }, lines };
}

async function repair(ctx: Context): Promise<Outcome> {
  const sync = syncOf(ctx.strapi);
  if (ctx.args.wait) await assertCanPush(ctx.strapi);
  if (!(await sync.drift()).report)
    throw new RunError('there is no drift report to repair: run `location-content check` first');
  let outcome: RepairOutcome;
  try {
    outcome = await sync.repair({ groups: ctx.args.groups });
  } catch (e) {
    throw new RunError(`the repair could not run: ${firstLine(e)}`);
  }
  const queued = Object.values(outcome.queued).reduce((a, b) => a + (b ?? 0), 0);
  const lines = [
    `repair of ${outcome.groups.join(', ')}: ${queued} entries queued, ${outcome.deleted} objects deleted, ${outcome.skipped.length} left alone, ${outcome.errors.length} errors`,
    ...list(
      outcome.errors,
      outcome.errors.length,
      (e) => `${e.resource} ${e.remoteId}: ${e.error}`
    ),
  ];
  let report: SyncStatusReport | null = null;
  if (ctx.args.wait) {
    await waitForPushes(ctx, 'repair');
    report = await sync.status({ failedLimit: ctx.args.failedLimit });
    lines.push(countsLine(report.counts), ...failedLines(report));
  }
  return {
    code: outcome.errors.length || (report && report.counts.failed) ? 1 : 0,
    data: { outcome, ...(report ? { status: report } : {}) },
    lines,
  };
}

async function link(ctx: Context): Promise<Outcome> {
  const sync = syncOf(ctx.strapi);
  if (ctx.args.wait) await assertCanPush(ctx.strapi);
  await withWalkProgress(ctx, sync.inventory());
  let proposal: LinkProposal;
  try {
    proposal = await sync.link({ dryRun: ctx.args.dryRun });
  } catch (e) {
    throw new RunError(`the link could not run: ${firstLine(e)}`);
  }
  const c = proposal.counts;
  const lines = [
    ctx.args.dryRun
      ? `to link ${c.linked} · to choose ${c.ambiguous} · will be created ${c.unmatched} · remote objects matching no entry ${c.unowned} (nothing recorded)`
      : `linked ${proposal.applied} · to choose on the dashboard ${c.ambiguous} · will be created ${c.unmatched} · remote objects matching no entry ${c.unowned}`,
    ...(proposal.linked.length
      ? [
          ctx.args.dryRun ? 'to link:' : 'linked:',
          ...list(proposal.linked, c.linked, (l) => `${keyLabel(l)} → ${l.resource} ${l.remoteId}`),
        ]
      : []),
    ...(proposal.ambiguous.length
      ? [
          'several candidates (pick one in the dashboard):',
          ...list(
            proposal.ambiguous,
            c.ambiguous,
            (a) => `${keyLabel(a)} → ${a.candidates.map((k) => k.remoteId).join(', ')}`
          ),
        ]
      : []),
  ];
  let report: SyncStatusReport | null = null;
  if (ctx.args.wait) {
    await waitForPushes(ctx, 'link');
    report = await sync.status({ failedLimit: ctx.args.failedLimit });
    lines.push(countsLine(report.counts), ...failedLines(report));
  }
  return {
    code: report && report.counts.failed ? 1 : 0,
    data: { proposal, ...(report ? { status: report } : {}) },
    lines,
  };
}

/** Objects of a plan that cannot be imported: their own problems, or a whole resource blocked. */
const notImported = (plan: ImportPlan) =>
  plan.groups.reduce((n, g) => n + (g.blocked ? g.count : g.wouldFail), 0);

const importCountsLine = (job: ImportProgress) =>
  `imported ${job.counts.done} · failed ${job.counts.failed} · skipped ${job.counts.skipped} of ${job.counts.total}`;

const issueLines = (job: ImportProgress) =>
  job.issueCount
    ? [
        `objects not imported or imported in part (${job.issueCount}):`,
        ...list(
          job.issues,
          job.issueCount,
          (i) =>
            `${i.resource} ${i.remoteId}${i.name ? ` "${i.name}"` : ''}: ${i.imported ? 'imported without part of it: ' : ''}${i.reason}`
        ),
      ]
    : [];

async function importCommand(ctx: Context): Promise<Outcome> {
  const sync = syncOf(ctx.strapi);
  const options = { locale: ctx.args.locale, publish: ctx.args.publish, into: ctx.args.into };
  if (ctx.args.dryRun) {
    await withWalkProgress(ctx, sync.inventory());
    let plan: ImportPlan;
    try {
      plan = await sync.import({ ...options, dryRun: true });
    } catch (e) {
      throw new RunError(`the import could not be planned: ${firstLine(e)}`);
    }
    const failing = notImported(plan);
    const lines = [
      `an import would write ${plan.total - failing} of ${plan.total} objects${plan.locale ? ` (locale ${plan.locale})` : ''} as ${plan.publish ? 'published entries' : 'drafts'}; ${failing} could not be imported (nothing written)`,
    ];
    for (const g of plan.groups) {
      const others = g.candidates.filter((c) => c !== g.contentType);
      lines.push(
        `${g.resource}: ${g.count} → ${g.contentType ?? 'no content type'}${others.length ? ` (also mapped: ${others.join(', ')}; choose with --into ${g.resource}=<uid>)` : ''}${g.blocked ? ` (none can be imported: ${g.blocked})` : g.wouldFail ? ` (${g.wouldFail} would fail)` : ''}`
      );
      for (const f of g.notImportable)
        lines.push(
          `  field ${f.field}${f.path ? ` (${f.path})` : ''} is not imported: ${f.reason}`
        );
      for (const sample of g.samples.filter((x) => x.problems.length).slice(0, 3))
        lines.push(
          `  ${g.resource} ${sample.remoteId}${sample.name ? ` "${sample.name}"` : ''}: ${sample.problems.join('; ')}`
        );
    }
    return { code: failing ? 1 : 0, data: { plan, notImported: failing }, lines };
  }
  let job: ImportProgress;
  try {
    job = await sync.import({ ...options, dryRun: false });
  } catch (e) {
    throw new RunError(`the import could not start: ${firstLine(e)}`);
  }
  if (!ctx.args.wait)
    return {
      code: 0,
      data: { job },
      lines: [
        `import ${job.id} started; it goes on where this command leaves it at the next start of a Strapi on this database (--wait runs it to its end from here)`,
      ],
    };
  // The job runs in this process (or in a server's, which holds its lease): its progress is read
  // from the store until it ends.
  const deadline = Date.now() + ctx.args.timeoutMs;
  try {
    for (;;) {
      job = (await sync.importProgress()) ?? job;
      if (job.state !== 'running') break;
      const c = job.counts;
      if (job.phase === 'walk' || job.phase === 'links' || !c.total)
        ctx.progress.update(`import (${job.phase ?? '…'})`, c.done + c.failed + c.skipped, null);
      else ctx.progress.update(`import (${job.phase})`, c.done + c.failed + c.skipped, c.total);
      if (Date.now() > deadline)
        throw new RunError(
          `the import did not end in time (--timeout ${ctx.args.timeoutMs / 1000} s); it resumes at the next start`
        );
      await new Promise((r) => setTimeout(r, 300));
    }
  } finally {
    ctx.progress.end();
  }
  if (job.state !== 'done') throw new RunError(`the import ${job.state}: ${job.error ?? '?'}`);
  return {
    code: job.counts.failed > 0 ? 1 : 0,
    data: { job },
    lines: [`import ${job.id} done: ${importCountsLine(job)}`, ...issueLines(job)],
  };
}

export const RUN: Record<CommandName, (ctx: Context) => Promise<Outcome>> = {
  status,
  resync,
  check,
  repair,
  link,
  import: importCommand,
};
