/**
 * npm run emulator -- [--port 4010] [--client-id demo-client] [--client-secret demo-secret]
 *   [--strict] [--put-mode merge|replace] [--rate 5 --burst 10] [--page-size 20] [--token-ttl 36000]
 *   [--date-style ms-utc|utc-offset|microseconds|local-offset|mixed] [--max-media-bytes N] [--verbose]
 * Each flag has an env equivalent: EMULATOR_PORT, EMULATOR_CLIENT_ID, EMULATOR_CLIENT_SECRET,
 * EMULATOR_STRICT, EMULATOR_PUT_MODE, EMULATOR_RATE, EMULATOR_BURST, EMULATOR_PAGE_SIZE,
 * EMULATOR_TOKEN_TTL, EMULATOR_DATE_STYLE, EMULATOR_MAX_MEDIA_BYTES, EMULATOR_VERBOSE. Flags win.
 */
import { startEmulator } from './index';
import type { DateStyle, EmulatorOptions, PutMode } from './types';

interface FlagSpec {
  env: string;
  boolean?: boolean;
  help: string;
}

const FLAGS: Record<string, FlagSpec> = {
  port: { env: 'EMULATOR_PORT', help: 'port on 127.0.0.1 (default 4010; 0 = any free port)' },
  'client-id': { env: 'EMULATOR_CLIENT_ID', help: 'client id (default demo-client)' },
  'client-secret': { env: 'EMULATOR_CLIENT_SECRET', help: 'client secret (default demo-secret)' },
  strict: {
    env: 'EMULATOR_STRICT',
    boolean: true,
    help: 'reject fields and query parameters the contract does not list',
  },
  'put-mode': { env: 'EMULATOR_PUT_MODE', help: 'merge (default) or replace' },
  rate: {
    env: 'EMULATOR_RATE',
    help: 'rate limit: requests per second per client (default: no limit)',
  },
  burst: { env: 'EMULATOR_BURST', help: 'rate limit bucket size (default: ceil(rate))' },
  'page-size': { env: 'EMULATOR_PAGE_SIZE', help: 'page size of lists (default 20)' },
  'token-ttl': { env: 'EMULATOR_TOKEN_TTL', help: 'expires_in of tokens, seconds (default 36000)' },
  'date-style': {
    env: 'EMULATOR_DATE_STYLE',
    help: 'ms-utc (default), utc-offset, microseconds, local-offset, mixed',
  },
  'max-media-bytes': {
    env: 'EMULATOR_MAX_MEDIA_BYTES',
    help: 'largest decoded media, bytes (default 5242880)',
  },
  verbose: { env: 'EMULATOR_VERBOSE', boolean: true, help: 'print one line per request' },
  help: { env: '', boolean: true, help: 'show this help' },
};

function usage(): string {
  const lines = Object.entries(FLAGS).map(
    ([k, f]) =>
      `  --${k}${f.boolean ? '' : ' <value>'}`.padEnd(30) + f.help + (f.env ? ` [${f.env}]` : '')
  );
  return `Location Content API v3.0 emulator\n\nUsage: npm run emulator -- [flags]\n\n${lines.join('\n')}\n`;
}

/** A bad flag or value: main() prints it with the usage and exits 2. */
export class UsageError extends Error {}

function fail(msg: string): never {
  throw new UsageError(msg);
}

export function parseArgs(
  argv: string[],
  env: NodeJS.ProcessEnv
): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  for (const [k, f] of Object.entries(FLAGS)) {
    const v = f.env ? env[f.env] : undefined;
    if (v !== undefined && v !== '')
      values[k] = f.boolean ? !['0', 'false', 'no', 'off'].includes(v.toLowerCase()) : v;
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) fail(`unexpected argument "${a}"`);
    const eq = a.indexOf('=');
    const name = a.slice(2, eq === -1 ? undefined : eq);
    const f = FLAGS[name];
    if (!f) fail(`unknown flag --${name}`);
    if (f.boolean) {
      values[name] =
        eq === -1 ? true : !['0', 'false', 'no', 'off'].includes(a.slice(eq + 1).toLowerCase());
    } else if (eq !== -1) values[name] = a.slice(eq + 1);
    else {
      const v = argv[++i];
      if (v === undefined) fail(`--${name} needs a value`);
      values[name] = v;
    }
  }
  return values;
}

function num(
  values: Record<string, string | boolean>,
  key: string,
  integer = true
): number | undefined {
  const v = values[key];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (
    typeof v !== 'string' ||
    v.trim() === '' ||
    !Number.isFinite(n) ||
    (integer && !Number.isInteger(n))
  ) {
    fail(`--${key} must be a${integer ? 'n integer' : ' number'}, got "${String(v)}"`);
  }
  return n;
}

export function optionsFrom(values: Record<string, string | boolean>): EmulatorOptions {
  const opts: EmulatorOptions = {
    port: num(values, 'port') ?? 4010,
    clientId: (values['client-id'] as string | undefined) ?? 'demo-client',
    clientSecret: (values['client-secret'] as string | undefined) ?? 'demo-secret',
  };
  if (values.strict) opts.strict = true;
  if (values['put-mode'] !== undefined) opts.putMode = values['put-mode'] as PutMode;
  if (values['date-style'] !== undefined) opts.dateStyle = values['date-style'] as DateStyle;
  const rate = num(values, 'rate', false);
  const burst = num(values, 'burst');
  if (burst !== undefined && rate === undefined) fail('--burst needs --rate');
  if (rate !== undefined) opts.rateLimit = { rate, burst: burst ?? Math.max(1, Math.ceil(rate)) };
  const pageSize = num(values, 'page-size');
  if (pageSize !== undefined) opts.pageSize = pageSize;
  const ttl = num(values, 'token-ttl');
  if (ttl !== undefined) opts.tokenTtl = ttl;
  const maxMedia = num(values, 'max-media-bytes');
  if (maxMedia !== undefined) opts.maxMediaBytes = maxMedia;
  return opts;
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean>;
  let opts: EmulatorOptions;
  try {
    values = parseArgs(process.argv.slice(2), process.env);
    if (values.help) {
      process.stdout.write(usage());
      return;
    }
    opts = optionsFrom(values);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`emulator: ${err.message}\n\n${usage()}`);
    process.exit(2);
  }
  if (values.verbose)
    opts.logger = (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  let emu;
  try {
    emu = await startEmulator(opts);
  } catch (err) {
    // e.g. a bad --put-mode or a port in use
    process.stderr.write(
      `emulator: ${err instanceof Error ? err.message : String(err)}\n\n${usage()}`
    );
    process.exit(2);
  }
  const cfg = emu.config();
  process.stdout.write(
    [
      'Location Content API v3.0 emulator',
      `  base URL      ${emu.baseUrl}`,
      `  token URL     ${emu.baseUrl}/v3.0/oauth2/token`,
      `  client id     ${emu.clientId}`,
      `  client secret ${emu.clientSecret}`,
      `  options       putMode=${cfg.putMode} strict=${cfg.strict} pageSize=${cfg.pageSize} tokenTtl=${cfg.tokenTtl}s ` +
        `rateLimit=${cfg.rateLimit ? `${cfg.rateLimit.rate}/s burst ${cfg.rateLimit.burst}` : 'off'} dateStyle=${cfg.dateStyle}`,
      `  control API   ${emu.baseUrl}/__emulator (state, requests, stats, config, faults, reset)`,
      'Ctrl+C to stop.',
      '',
    ].join('\n')
  );
  let stopping = false;
  // Whoever started it may be gone with the read end of its stdout: that is no reason to crash.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the emulator\n`);
    emu.stop().then(
      () => process.exit(0),
      () => process.exit(1)
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`emulator: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
