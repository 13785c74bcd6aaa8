/**
 * A Strapi server runs all of the plugin (worker, resumes, catch-up, walks, cron, alerts); the CLI
 * (cli/) sets CLI_RUN on globalThis (a symbol: no child process inherits it) to run one command
 * beside the servers, starting the worker only when its command waits for pushes.
 */
export const CLI_RUN = Symbol.for('strapi-plugin-location-content.cli-run');

export const cliRun = (): boolean => Boolean((globalThis as Record<symbol, unknown>)[CLI_RUN]);
