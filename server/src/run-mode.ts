/**
 * How this process runs the plugin. A Strapi server runs all of it (worker, resumed resync,
 * catch-up, account watch, scheduled check, alerts). The `location-content` CLI (cli/) sets
 * CLI_RUN on globalThis (a symbol, so that no child process or config inherits it) before loading
 * the app to run one command beside any servers: the plugin then starts none of that, the CLI
 * starts the worker itself when its command waits for pushes, and the outbox lease keeps it from
 * pushing what a server's worker pushes.
 */
export const CLI_RUN = Symbol.for('strapi-plugin-location-content.cli-run');

export const cliRun = (): boolean => Boolean((globalThis as Record<symbol, unknown>)[CLI_RUN]);
