/**
 * How this process runs the plugin. A Strapi server (the default) runs all of it: the worker, the
 * resumption of an interrupted resync, the catch-up after an unclean stop, the account watch, the
 * scheduled check and the alerts. The `location-content` CLI (cli/) boots the app only to run one
 * command, with or without servers on the same database: before loading the app it sets the run
 * below, and the plugin then starts the worker only when the command waits for pushes (the outbox
 * lease keeps it from pushing what a server's worker pushes) and leaves the rest to the servers.
 */
export interface CliRun {
  /** the command waits for pushes: this process drains the outbox too, under the lease */
  worker: boolean;
}

/** Set on globalThis by the CLI; a symbol, so that no child process or config inherits it. */
export const CLI_RUN = Symbol.for('strapi-plugin-location-content.cli-run');

/** The CLI's run when the CLI loaded this app, null in a server. */
export const cliRun = (): CliRun | null =>
  ((globalThis as Record<symbol, unknown>)[CLI_RUN] as CliRun | undefined) ?? null;
