import type { Core } from '@strapi/strapi';
import { pushEnvironment } from '../config/environment';
import type {
  GetSettings,
  TestConnection,
  UpdateSettings,
} from '../../../shared/contracts/settings';
import { pluginConfig } from '../sync/shared/config';
import { getService, type Context } from '../utils';
import { testConnection } from '../settings/connection';
import type { Credentials } from '../settings/credentials';
import { parseSettingsInput, requireSecretForNewHost, withoutLocked } from '../settings/input';
import { mappingsForAdmin } from './mappings';

/** Connection tests stop waiting after this long even if the sync's own timeout is longer. */
const MAX_TEST_TIMEOUT_MS = 15_000;

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const settings = () => getService('settings', { strapi });
  const store = () => settings().credentials;
  const config = () => pluginConfig(strapi);
  /**
   * The body's fields, less those config/plugins fixes; bad input is a ValidationError (a 400).
   * `effective`: the credentials as `get()` returned them (each read opens the sealed secret).
   */
  const input = (ctx: Context, effective: Partial<Credentials>) => {
    const current = store().viewOf(effective);
    const parsed = withoutLocked(parseSettingsInput(ctx.request.body), current);
    requireSecretForNewHost(parsed, current);
    return parsed;
  };

  return {
    /** Never the secret: only whether one is set and its last 4 characters. */
    async get(ctx: Context) {
      const { alerts } = config();
      ctx.body = {
        settings: await store().publicView(),
        mappings: mappingsForAdmin(strapi),
        environment: pushEnvironment(config()),
        alerts: alerts
          ? { email: alerts.email?.length ?? 0, webhook: Boolean(alerts.webhook) }
          : null,
      } satisfies GetSettings.Response;
    },

    async update(ctx: Context) {
      await store().save(input(ctx, await store().get()));
      settings().changed();
      strapi.log.info(
        `[location-content] settings changed by admin user ${ctx.state.user?.id ?? '?'}`
      );
      ctx.body = { settings: await store().publicView() } satisfies UpdateSettings.Response;
    },

    /** Sends a test alert to every configured channel, whatever the interval. */
    async testAlert(ctx: Context) {
      const { alerts } = config();
      if (!alerts?.email?.length && !alerts?.webhook)
        return ctx.badRequest(
          'No alert channel is configured: set alerts.email or alerts.webhook in config/plugins.'
        );
      ctx.body = { result: await getService('sync', { strapi }).alerts.sendTest() };
    },

    /** Tests the form's values (unsaved ones included); an empty secret field means the saved secret. */
    async test(ctx: Context) {
      const effective = await store().get();
      const form = input(ctx, effective);
      const credentials = {
        baseUrl: form.baseUrl ?? effective.baseUrl,
        clientId: form.clientId ?? effective.clientId,
        clientSecret: form.clientSecret || effective.clientSecret,
      };
      const timeoutMs = Math.min(config().requestTimeoutMs, MAX_TEST_TIMEOUT_MS);
      ctx.body = {
        result: await testConnection(credentials, settings().testClient, { timeoutMs }),
      } satisfies TestConnection.Response;
    },
  };
};
