/**
 * The CLI's argument parsing and usage texts (cli/args.ts) through its entry point (cli/index.ts's
 * `main`), in this process: bad usage and help end before any app is loaded, so a child process
 * per case would prove no more. tests/e2e/cli.test.ts runs the built command for node's own
 * parse errors (their class is another realm's under jest), for --help, and every command
 * against a real app.
 */
import { commandHelp, mainHelp, parse } from '../../cli/args';

/** What `main` writes, per stream. */
const written = { stdout: '', stderr: '' };
let main: (argv: string[]) => Promise<number>;

beforeAll(() => {
  // cli/output.ts binds stdout's write when it loads (its `out` still reaches stdout once the
  // command reserves it): the CLI is loaded after these are in place.
  for (const name of ['stdout', 'stderr'] as const)
    jest.spyOn(process[name], 'write').mockImplementation(((chunk: string, ...rest: unknown[]) => {
      written[name] += chunk;
      (rest.find((r) => typeof r === 'function') as (() => void) | undefined)?.();
      return true;
    }) as typeof process.stdout.write);
  jest.isolateModules(() => {
    ({ main } = require('../../cli/index'));
  });
});

afterAll(() => jest.restoreAllMocks());

beforeEach(() => {
  written.stdout = '';
  written.stderr = '';
});

describe('bad usage: exit 2, one readable line on stderr, nothing on stdout', () => {
  test.each([
    [['frobnicate'], /^location-content: unknown command "frobnicate"/],
    [['repair'], /^location-content: repair: --groups is required/],
    [['check', '--groups', 'typos'], /^location-content: --groups takes missing, changed/],
    [[], /^location-content: a command is needed/],
    [['import', '--into', 'pinpoint'], /^location-content: --into takes resource=uid pairs/],
  ])('%j', async (args, message) => {
    expect(await main(args)).toBe(2);
    expect(written.stderr.trim().split('\n')).toHaveLength(1);
    expect(written.stderr).toMatch(message);
    expect(written.stdout).toBe('');
  });
});

test('--help and help <command> print the usage on stdout, exit 0', async () => {
  const codes: number[] = [];
  const printed: string[] = [];
  for (const args of [['--help'], ['help', 'resync'], ['link', '--help']]) {
    written.stdout = '';
    codes.push(await main(args));
    printed.push(written.stdout);
  }
  expect(codes).toEqual([0, 0, 0]);
  expect(written.stderr).toBe('');
  expect(printed[0]).toMatch(/^Usage: location-content <command>/);
  expect(printed[0]).toBe(`${mainHelp()}\n`);
  expect(printed[1]).toMatch(/^Usage: location-content resync \[--dry-run\] \[--wait\]/);
  expect(printed[1]).toBe(`${commandHelp('resync')}\n`);
  expect(printed[2]).toContain('--dry-run');
});

test('--into takes the content type chosen per resource', () => {
  expect(parse(['import', '--dry-run', '--into', 'pinpoint=api::place.place']).into).toEqual({
    pinpoint: 'api::place.place',
  });
});
