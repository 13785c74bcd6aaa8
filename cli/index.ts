#!/usr/bin/env node
/**
 * The `location-content` command (package.json `bin`, built into dist/cli/ by `npm run build`):
 * it loads the Strapi app of the current folder (app.ts: JavaScript, or TypeScript compiled as
 * `strapi console` compiles it), runs one of the public sync service's calls (commands.ts: status,
 * resync, check, repair, link, import), prints the result for a person or as one JSON document
 * (output.ts), destroys Strapi and exits with a code a CI job can gate on: 0 all is well, 1 entries
 * failed, drift was found or objects were not imported, 2 bad usage (args.ts), 3 the command could
 * not run. In this process the plugin runs no background work of a server; the worker runs only for
 * --wait, started by the command once its own work is recorded, beside any server on the same
 * database (server/src/run-mode.ts); an import runs only for the `import` command.
 */
import type { Core } from '@strapi/strapi';
import { commandHelp, mainHelp, parse, UsageError, type Parsed } from './args';
import { loadApp, RunError } from './app';
import { RUN } from './commands';
import { err, firstLine, out, progress, reserveStdout } from './output';
import { interruption } from './signals';

export const EXIT = { ok: 0, failed: 1, usage: 2, error: 3 } as const;

async function run(args: Parsed): Promise<number> {
  const command = args.command!;
  reserveStdout();
  const started = Date.now();
  let strapi: Core.Strapi | undefined;
  let code: number = EXIT.error;
  let document: Record<string, unknown>;
  // Stopped (Ctrl-C, a CI job's timeout): Strapi is destroyed below and the exit code says so.
  const interrupted = interruption(() => process.exit(EXIT.error));
  try {
    const work = (async () => {
      strapi = await loadApp({
        appDir: process.cwd(),
        compile: args.compile,
        verbose: args.verbose,
      });
      const bar = progress(args.json ? 'none' : process.stderr.isTTY ? 'tty' : 'plain');
      return RUN[command]({ strapi, args, progress: bar });
    })();
    work.catch(() => undefined);
    const outcome = await Promise.race([
      work,
      interrupted.signal.then((signal) => {
        throw new RunError(`interrupted by ${signal}`);
      }),
    ]);
    code = outcome.code;
    document = { command, exitCode: code, ok: code === 0, ...outcome.data };
    if (!args.json) await out(outcome.lines.join('\n'));
  } catch (e) {
    const message = e instanceof RunError ? e.message : `${command} failed: ${firstLine(e)}`;
    code = EXIT.error;
    document = { command, exitCode: code, ok: false, error: message };
    err(`location-content: ${message}`);
  }
  if (strapi) {
    // Stops the worker (its rows in flight finish, those not started are released), the walks and
    // the database; a failure here is said, and the exit code says the command's outcome.
    try {
      await strapi.destroy();
    } catch (e) {
      err(`location-content: Strapi did not stop cleanly: ${firstLine(e)}`);
    }
  }
  if (args.json) await out(JSON.stringify({ ...document, ms: Date.now() - started }));
  interrupted.dispose();
  return code;
}

export async function main(argv: string[]): Promise<number> {
  let args: Parsed;
  try {
    args = parse(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      err(`location-content: ${e.message}`);
      return EXIT.usage;
    }
    throw e;
  }
  if (args.help) {
    await out(args.command ? commandHelp(args.command) : mainHelp());
    return EXIT.ok;
  }
  return run(args);
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      err(`location-content: ${firstLine(e)}`);
      process.exit(EXIT.error);
    }
  );
}
