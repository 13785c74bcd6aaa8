import type { Core } from '@strapi/strapi';
import { pushEnvironment } from '../config/environment';
import type { PluginConfig } from '../config/types';
import { PLUGIN_ID } from '../permissions';
import type {
  GetSettings,
  TestConnection,
  UpdateSettings,
} from '../../../shared/contracts/settings';
import { getService, type Context } from '../utils';
import { testConnection } from '../settings/connection';
import {
  credentialsToTest,
  parseSettingsInput,
  requireSecretForNewHost,
  withoutLocked,
} from '../settings/input';
import { mappingsForAdmin } from './mappings';

const settings = (strapi: Core.Strapi) => getService('settings', { strapi });
const store = (strapi: Core.Strapi) => settings(strapi).credentials;

/** Connection tests stop waiting after this long even if the sync's own timeout is longer. */
const MAX_TEST_TIMEOUT_MS = 15_000;

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** Never the secret: only whether one is set and its last 4 characters. */
  async get(ctx: Context) {
    const config = strapi.config.get(`plugin::${PLUGIN_ID}`) as PluginConfig;
    ctx.body = {
      settings: await store(strapi).publicView(),
      mappings: mappingsForAdmin(strapi),
      environment: pushEnvironment(config),
      alerts: config.alerts
        ? { email: config.alerts.email?.length ?? 0, webhook: Boolean(config.alerts.webhook) }
        : null,
    } satisfies GetSettings.Response;
  },

  async update(ctx: Context) {
    // Bad input throws a SettingsInputError (a ValidationError): Strapi answers it as a 400.
    const current = await store(strapi).publicView();
    const input = withoutLocked(parseSettingsInput(ctx.request.body), current);
    requireSecretForNewHost(input, current);
    await store(strapi).save(input);
    settings(strapi).changed();
    strapi.log.info(
      `[location-content] settings changed by admin user ${ctx.state.user?.id ?? '?'}`
    );
    ctx.body = { settings: await store(strapi).publicView() } satisfies UpdateSettings.Response;
  },

  /** Sends a test alert to every configured channel, whatever the interval. */
  async testAlert(ctx: Context) {
    const config = strapi.config.get(`plugin::${PLUGIN_ID}`) as PluginConfig;
    if (!config.alerts?.email?.length && !config.alerts?.webhook)
      return ctx.badRequest(
        'No alert channel is configured: set alerts.email or alerts.webhook in config/plugins.'
      );
    ctx.body = { result: await getService('sync', { strapi }).alerts.sendTest() };
  },

  /** Tests the form's values (unsaved ones included); an empty secret field means the saved secret. */
  async test(ctx: Context) {
    const current = await store(strapi).publicView();
    const input = withoutLocked(parseSettingsInput(ctx.request.body), current);
    requireSecretForNewHost(input, current);
    const credentials = credentialsToTest(input, await store(strapi).get());
    const config = strapi.config.get(`plugin::${PLUGIN_ID}`) as PluginConfig;
    const timeoutMs = Math.min(config.requestTimeoutMs, MAX_TEST_TIMEOUT_MS);
    ctx.body = {
      result: await testConnection(credentials, settings(strapi).testClient, { timeoutMs }),
    } satisfies TestConnection.Response;
  },
});
