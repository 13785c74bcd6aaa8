import { parseArgs } from 'node:util';
import type { DriftGroup } from '../shared/contracts/drift';

/** Bad usage: one line on stderr, exit code 2. */
export class UsageError extends Error {}

export const DRIFT_GROUPS: readonly DriftGroup[] = ['missing', 'changed', 'membership', 'notOurs'];

export type CommandName = 'status' | 'resync' | 'check' | 'repair' | 'link' | 'import';

export interface Parsed {
  command: CommandName | null;
  help: boolean;
  json: boolean;
  verbose: boolean;
  compile: boolean;
  dryRun: boolean;
  wait: boolean;
  timeoutMs: number;
  groups: DriftGroup[];
  failedLimit: number;
  /** import: publish the entries at once (default: drafts) */
  publish: boolean;
  /** import: locale of the entries of localized types (default: the default locale) */
  locale: string | null;
  /** import: the content type chosen per resource (`--into pinpoint=api::place.place`) */
  into: Record<string, string>;
}

interface CommandSpec {
  usage: string;
  summary: string;
  /** what the command does, and what its exit code says */
  details: string;
  options: Record<string, { type: 'boolean' | 'string'; help: string }>;
}

const COMMON = {
  json: { type: 'boolean', help: 'print one JSON document on stdout (nothing else goes there)' },
  verbose: { type: 'boolean', help: "show Strapi's own log lines from info up (on stderr)" },
  'no-compile': {
    type: 'boolean',
    help: "TypeScript app: use its existing build (tsconfig's outDir) instead of compiling it",
  },
  help: { type: 'boolean', help: 'this help' },
} as const;

const WAIT = {
  wait: {
    type: 'boolean',
    help: 'wait until the queued pushes are done (this process pushes too)',
  },
  timeout: { type: 'string', help: 'with --wait: give up after this many seconds (default 3600)' },
} as const;

export const COMMANDS: Record<CommandName, CommandSpec> = {
  status: {
    usage: 'location-content status [--json]',
    summary: 'counts per status, the queue, the last resync and drift check, failed entries',
    details: 'Reads only. Exit code 1 when entries have failed.',
    options: {
      'failed-limit': {
        type: 'string',
        help: 'list at most this many failed entries (default 100)',
      },
    },
  },
  resync: {
    usage: 'location-content resync [--dry-run] [--wait] [--json]',
    summary: 'queue every mapped entry again (pushed in the background), or plan it',
    details:
      'Lists every entry into the outbox; a running Strapi on the same database pushes them, or this\n' +
      'process with --wait (both share the outbox under a lease: nothing is pushed twice).\n' +
      'Exit code 1 with --wait when entries failed, with --dry-run when entries would fail.',
    options: {
      'dry-run': {
        type: 'boolean',
        help: 'what a resync would create, update and delete; nothing is sent',
      },
      ...WAIT,
    },
  },
  check: {
    usage: 'location-content check [--groups missing,changed,...] [--json]',
    summary: 'walk the remote account and compare it with what was pushed (drift)',
    details:
      'Reads only (GETs). The report is kept, for `repair` and the dashboard.\n' +
      'Exit code 1 when drift is found in the groups given (default: all of them).',
    options: {
      groups: {
        type: 'string',
        help: `the groups that count as drift, comma-separated: ${DRIFT_GROUPS.join(', ')}`,
      },
    },
  },
  repair: {
    usage: 'location-content repair --groups missing,changed [--wait] [--json]',
    summary: 'repair groups of the last drift report (see README "Drift")',
    details:
      'missing, changed and membership queue the entries again; notOurs deletes the remote objects\n' +
      'no entry owns (never a category). Run `check` first. Exit code 1 when a delete failed, or\n' +
      'with --wait when entries failed.',
    options: {
      groups: { type: 'string', help: `comma-separated, required: ${DRIFT_GROUPS.join(', ')}` },
      ...WAIT,
    },
  },
  link: {
    usage: 'location-content link [--dry-run] [--wait] [--json]',
    summary: 'walk the remote account, then link entries to the objects already there',
    details:
      'Entries with exactly one candidate are linked (their next push updates it); entries with\n' +
      'several are listed, left for the dashboard. --dry-run only proposes. Exit code 1 with --wait\n' +
      'when entries failed.',
    options: {
      'dry-run': { type: 'boolean', help: 'propose only, record nothing' },
      ...WAIT,
    },
  },
  import: {
    usage:
      'location-content import [--dry-run] [--wait] [--publish] [--locale <code>] [--into <resource>=<uid>,…] [--json]',
    summary: 'make entries of the remote objects no entry owns (see README "Import")',
    details:
      'Walks the remote account first. --dry-run says per resource how many objects would go into\n' +
      'which content type and which mapped fields cannot be imported, and why; exit code 1 when\n' +
      'objects could not be imported. Otherwise the import job starts in this process: with --wait\n' +
      'it runs to its end here (exit code 1 when objects were not imported); without, it is\n' +
      'recorded and goes on where it was at the next start of a Strapi on this database.\n' +
      'The import writes entries, not the remote: it runs outside pushIn too.',
    options: {
      'dry-run': { type: 'boolean', help: 'the plan only, nothing written' },
      publish: { type: 'boolean', help: 'publish the entries at once (default: drafts)' },
      locale: {
        type: 'string',
        help: 'locale of the entries of localized types (default: the default locale)',
      },
      into: {
        type: 'string',
        help: 'pinpoint=api::stand.stand,…: the content type of a resource several mappings take',
      },
      wait: { type: 'boolean', help: 'run the import job to its end from this process' },
      timeout: WAIT.timeout,
    },
  },
};

const pad = (s: string, n: number) => s + ' '.repeat(Math.max(1, n - s.length));

const optionLines = (options: Record<string, { type: string; help: string }>) =>
  Object.entries(options).map(
    ([name, o]) => `  ${pad(`--${name}${o.type === 'string' ? ' <value>' : ''}`, 24)}${o.help}`
  );

export const mainHelp = () =>
  [
    "Usage: location-content <command> [options]   (run it in your Strapi app's folder)",
    '',
    'Loads the Strapi app of the current folder (JavaScript or TypeScript), runs one command and',
    'exits. No server needs to run; one that runs on the same database keeps running.',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${pad(name, 10)}${c.summary}`),
    '',
    'Options of every command:',
    ...optionLines(COMMON),
    '',
    'Exit codes: 0 all is well; 1 entries failed, drift was found or objects were not imported;',
    '2 bad usage; 3 the command could not run (the app did not load, the remote did not answer, a timeout).',
    '',
    'location-content help <command> (or <command> --help) tells more.',
  ].join('\n');

export const commandHelp = (name: CommandName) => {
  const c = COMMANDS[name];
  return [
    `Usage: ${c.usage}`,
    '',
    `${c.summary[0].toUpperCase()}${c.summary.slice(1)}.`,
    c.details,
    '',
    'Options:',
    ...optionLines(c.options),
    ...optionLines(COMMON),
  ].join('\n');
};

const isCommand = (s: string | undefined): s is CommandName =>
  s !== undefined && Object.prototype.hasOwnProperty.call(COMMANDS, s);

const positiveNumber = (flag: string, raw: string | undefined, fallback: number) => {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`--${flag} takes a positive number, not "${raw}"`);
  return n;
};

const groupsOf = (raw: string | undefined): DriftGroup[] => {
  if (raw === undefined) return [];
  const groups = raw
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);
  const unknown = groups.filter((g) => !(DRIFT_GROUPS as readonly string[]).includes(g));
  if (unknown.length || !groups.length)
    throw new UsageError(
      `--groups takes ${DRIFT_GROUPS.join(', ')} (comma-separated), not "${unknown.join(',') || raw}"`
    );
  return [...new Set(groups)] as DriftGroup[];
};

/** argv without node and the script. Throws UsageError on anything it does not know. */
export function parse(argv: string[]): Parsed {
  const first = argv[0];
  // `help <command>` and `--help` before anything else
  if (first === 'help') {
    const topic = argv[1];
    if (topic !== undefined && !isCommand(topic))
      throw new UsageError(`unknown command "${topic}" (try location-content --help)`);
    if (argv.length > 2)
      throw new UsageError(`help takes one command, not "${argv.slice(2).join(' ')}"`);
    return defaults(topic ?? null, true);
  }
  const command = first !== undefined && !first.startsWith('-') ? first : undefined;
  if (command !== undefined && !isCommand(command))
    throw new UsageError(`unknown command "${command}" (try location-content --help)`);
  const spec = command ? COMMANDS[command].options : {};
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: command ? argv.slice(1) : argv,
      options: { ...COMMON, ...spec },
      strict: true,
      allowPositionals: true,
    }));
  } catch (err) {
    // node's messages name the option and say how to pass a value: one line of it is enough
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    throw new UsageError(
      command ? `${command}: ${message.replace(/\. To specify a positional.*$/, '')}` : message
    );
  }
  if (positionals.length)
    throw new UsageError(
      `${command ?? 'location-content'}: unexpected argument "${positionals[0]}"${command ? '' : ' (try location-content --help)'}`
    );
  const parsed = defaults(command ?? null, Boolean(values.help));
  if (!command) {
    if (!parsed.help) throw new UsageError('a command is needed (try location-content --help)');
    return parsed;
  }
  parsed.json = Boolean(values.json);
  parsed.verbose = Boolean(values.verbose);
  parsed.compile = !values['no-compile'];
  parsed.dryRun = Boolean(values['dry-run']);
  parsed.wait = Boolean(values.wait);
  parsed.timeoutMs = positiveNumber('timeout', values.timeout as string | undefined, 3600) * 1000;
  parsed.failedLimit = Math.floor(
    positiveNumber('failed-limit', values['failed-limit'] as string | undefined, 100)
  );
  parsed.groups = groupsOf(values.groups as string | undefined);
  parsed.publish = Boolean(values.publish);
  if (values.locale !== undefined) {
    const locale = String(values.locale).trim();
    if (!/^[A-Za-z]{2,3}([-_][A-Za-z0-9]+)*$/.test(locale))
      throw new UsageError(`--locale takes a locale code such as en or fr-FR, not "${locale}"`);
    parsed.locale = locale;
  }
  if (values.into !== undefined) parsed.into = intoOf(String(values.into));
  if (parsed.help) return parsed;
  if (command === 'repair' && !parsed.groups.length)
    throw new UsageError(`repair: --groups is required (${DRIFT_GROUPS.join(', ')})`);
  if (parsed.dryRun && parsed.wait)
    throw new UsageError(`${command}: --dry-run sends nothing, there is nothing to --wait for`);
  if (values.timeout !== undefined && !parsed.wait)
    throw new UsageError(`${command}: --timeout goes with --wait`);
  return parsed;
}

const defaults = (command: CommandName | null, help: boolean): Parsed => ({
  command,
  help,
  json: false,
  verbose: false,
  compile: true,
  dryRun: false,
  wait: false,
  timeoutMs: 3_600_000,
  groups: [],
  failedLimit: 100,
  publish: false,
  locale: null,
  into: {},
});

/** `pinpoint=api::stand.stand,event=api::show.show`; which uids are mapped is the service's check. */
function intoOf(value: string): Record<string, string> {
  const into: Record<string, string> = {};
  for (const part of value.split(',').filter((p) => p.trim())) {
    const [resource, uid, extra] = part.split('=').map((p) => p.trim());
    if (!resource || !uid || extra !== undefined)
      throw new UsageError(
        `--into takes resource=uid pairs such as pinpoint=api::place.place, not "${part}"`
      );
    into[resource] = uid;
  }
  return into;
}
