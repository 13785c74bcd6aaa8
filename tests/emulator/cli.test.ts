import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { optionsFrom, parseArgs, UsageError } from '../../emulator/src/cli';

const root = join(__dirname, '..', '..');

describe('flags and env', () => {
  it('defaults: port 4010, demo-client / demo-secret', () => {
    expect(optionsFrom(parseArgs([], {}))).toEqual({
      port: 4010,
      clientId: 'demo-client',
      clientSecret: 'demo-secret',
    });
  });

  it('every flag, in both --flag value and --flag=value forms', () => {
    const opts = optionsFrom(
      parseArgs(
        [
          '--port',
          '0',
          '--client-id=me',
          '--client-secret',
          's3cret',
          '--strict',
          '--put-mode',
          'replace',
          '--rate=2.5',
          '--burst',
          '4',
          '--page-size',
          '7',
          '--token-ttl',
          '60',
          '--date-style',
          'mixed',
          '--max-media-bytes',
          '1000',
        ],
        {}
      )
    );
    expect(opts).toEqual({
      port: 0,
      clientId: 'me',
      clientSecret: 's3cret',
      strict: true,
      putMode: 'replace',
      rateLimit: { rate: 2.5, burst: 4 },
      pageSize: 7,
      tokenTtl: 60,
      dateStyle: 'mixed',
      maxMediaBytes: 1000,
    });
  });

  it('env equivalents, and flags win over env', () => {
    const env = {
      EMULATOR_PORT: '5000',
      EMULATOR_CLIENT_ID: 'env-id',
      EMULATOR_STRICT: '1',
      EMULATOR_RATE: '3',
      EMULATOR_PUT_MODE: 'replace',
    };
    expect(optionsFrom(parseArgs([], env))).toMatchObject({
      port: 5000,
      clientId: 'env-id',
      strict: true,
      putMode: 'replace',
      rateLimit: { rate: 3, burst: 3 },
    });
    expect(optionsFrom(parseArgs(['--port', '6000', '--strict=false'], env))).toMatchObject({
      port: 6000,
    });
    expect(optionsFrom(parseArgs(['--strict=false'], env)).strict).toBeUndefined();
  });

  it('bad flags are usage errors (exit 2 in the CLI), not crashes', () => {
    expect(() => parseArgs(['--nope'], {})).toThrow(UsageError);
    expect(() => parseArgs(['--port'], {})).toThrow(/needs a value/);
    expect(() => parseArgs(['stray'], {})).toThrow(UsageError);
    expect(() => optionsFrom(parseArgs(['--port', 'abc'], {}))).toThrow(
      /--port must be an integer/
    );
    expect(() => optionsFrom(parseArgs(['--burst', '3'], {}))).toThrow(/--burst needs --rate/);
  });
});

describe('npm run emulator', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('prints its base URL and credentials, serves on 127.0.0.1, stops on SIGTERM', async () => {
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'emulator/src/cli.ts',
        '--port',
        '0',
        '--strict',
        '--put-mode',
        'replace',
      ],
      {
        cwd: root,
        env: {
          ...process.env,
          EMULATOR_CLIENT_ID: 'cli-client',
          EMULATOR_CLIENT_SECRET: 'cli-secret',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      }
    );
    const proc = child;
    let out = '';
    let err = '';
    proc.stderr!.on('data', (d) => (err += d.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no banner in 20 s; stdout: ${out}; stderr: ${err}`)),
        20_000
      );
      proc.stdout!.on('data', (d) => {
        out += d.toString();
        if (out.includes('Ctrl+C')) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.on('exit', (code) => reject(new Error(`exited early (${code}): ${err}`)));
    });
    const baseUrl = /base URL\s+(\S+)/.exec(out)![1]!;
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(out).toMatch(/client id\s+cli-client/);
    expect(out).toMatch(/client secret\s+cli-secret/);

    const token = await fetch(`${baseUrl}/v3.0/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('cli-client:cli-secret').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'client_id=cli-client&grant_type=client_credentials',
    });
    expect(token.status).toBe(200);
    const cfg = await (await fetch(`${baseUrl}/__emulator/config`)).json();
    expect(cfg).toMatchObject({ strict: true, putMode: 'replace' });

    const exit = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    proc.kill('SIGTERM');
    expect(await exit).toBe(0);
  }, 30_000);
});
