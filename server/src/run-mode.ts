/**
 * How this process runs the plugin. A Strapi server (the default) runs all of it: the worker, the
 * resumption of an interrupted resync, the catch-up after an unclean stop, the account watch, the
 * scheduled check and the alerts. The `location-content` CLI (cli/) boots the app only to run one
 * command, with or without servers on the same database: before loading the app it sets the run
 * below, and the plugin then starts none of that. The CLI starts the worker itself when its command
 * waits for pushes, once the command's own work is recorded (a link before the pushes it changes);
 * the outbox lease keeps it from pushing what a server's worker pushes.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CliRun {}

/** Set on globalThis by the CLI; a symbol, so that no child process or config inherits it. */
export const CLI_RUN = Symbol.for('strapi-plugin-location-content.cli-run');

/** The CLI's run when the CLI loaded this app, null in a server. */
export const cliRun = (): CliRun | null =>
  ((globalThis as Record<symbol, unknown>)[CLI_RUN] as CliRun | undefined) ?? null;
