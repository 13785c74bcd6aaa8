/**
 * How this process runs the plugin. A Strapi server runs all of it (worker, resumed resync,
 * catch-up, account watch, scheduled check, alerts). The `location-content` CLI (cli/) sets the run
 * below before loading the app to run one command beside any servers: the plugin then starts none
 * of that, the CLI starts the worker itself when its command waits for pushes, and the outbox
 * lease keeps it from pushing what a server's worker pushes.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CliRun {}

/** Set on globalThis by the CLI; a symbol, so that no child process or config inherits it. */
export const CLI_RUN = Symbol.for('strapi-plugin-location-content.cli-run');

/** The CLI's run when the CLI loaded this app, null in a server. */
export const cliRun = (): CliRun | null =>
  ((globalThis as Record<symbol, unknown>)[CLI_RUN] as CliRun | undefined) ?? null;
