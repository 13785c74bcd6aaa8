import type { Core } from '@strapi/strapi';
import type { AlertKind, AlertMessage, SendTestAlert } from '../../../shared/contracts/alerts';
import { environmentName } from '../config/environment';
import { PLUGIN_ID } from '../permissions';
import { pluginConfig } from '../sync/shared/config';
import { failureOf } from '../sync/shared/db-error';
import { keyLabel } from '../sync/shared/keys';
import type { EntryKey } from '../sync/shared/types';
import type { PushResult } from '../sync/push';
import { claimAlert } from './claim';
import { httpFetch } from '../remote/transport';
import { getService } from '../utils';

const WEBHOOK_TIMEOUT_MS = 10_000;
/** how often the stuck check runs: a tenth of the shortest stuck time, at most every minute */
const checkEveryMs = (stuckMinutes = 15) =>
  Math.min(60_000, Math.max(1_000, (stuckMinutes * 60_000) / 10));

type Delivery = SendTestAlert.Response['result'];
/** A channel's failure as the result and the log show it: its message, cut short. */
const errorText = (err: unknown) => String((err as Error | null)?.message ?? err).slice(0, 300);

const dashboardUrl = (strapi: Core.Strapi) => {
  const admin = String(strapi.config.get('admin.absoluteUrl') ?? '/admin').replace(/\/+$/, '');
  return `${admin}/plugins/${PLUGIN_ID}`;
};

/**
 * Alerts for installs nobody watches: credentials refused, an entry failed for good, a queue with
 * work due and no push for `stuckMinutes`. By e-mail (Strapi's email plugin) and/or a JSON webhook,
 * at most one per kind per `intervalMinutes` across instances. The texts are built from entry keys
 * and the remote's redacted reasons only.
 */
export function createAlerts(strapi: Core.Strapi) {
  const config = () => pluginConfig(strapi).alerts;
  let lastProgressAt = Date.now();
  let timer: NodeJS.Timeout | undefined;

  const message = (kind: AlertKind, title: string, text: string): AlertMessage => ({
    kind,
    title: `[Location Content] ${title}`,
    text: `${text}\n\nDashboard: ${dashboardUrl(strapi)}`,
    dashboardUrl: dashboardUrl(strapi),
    environment: environmentName(),
    at: new Date().toISOString(),
  });

  const deliver = async (m: AlertMessage): Promise<Delivery> => {
    const c = config();
    const result: Delivery = { email: null, webhook: null };
    if (c?.email?.length) {
      try {
        const email = strapi.plugin('email')?.service('email');
        if (!email) throw new Error('the email plugin is not installed');
        await email.send({ to: c.email.join(','), subject: m.title, text: m.text });
        result.email = { to: c.email.length, error: null };
      } catch (err) {
        result.email = { to: 0, error: errorText(err) };
      }
    }
    if (c?.webhook) {
      try {
        // The plugin's one HTTP client, which follows no redirect: a webhook URL is its final address.
        const res = await httpFetch(c.webhook, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(m),
          signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        });
        const ok = res.status >= 200 && res.status < 300;
        result.webhook = { status: res.status, error: ok ? null : `answered ${res.status}` };
      } catch (err) {
        result.webhook = { status: null, error: errorText(err) };
      }
    }
    for (const [channel, r] of Object.entries(result))
      if (r?.error)
        strapi.log.warn(
          `[location-content] the ${m.kind} alert could not be sent by ${channel}: ${r.error}`
        );
    return result;
  };

  const raise = async (kind: Exclude<AlertKind, 'test'>, title: string, text: string) => {
    const c = config();
    if (!c || (!c.email?.length && !c.webhook)) return;
    try {
      if (!(await claimAlert(strapi, kind, (c.intervalMinutes ?? 60) * 60_000))) return;
      await deliver(message(kind, title, text));
    } catch (err) {
      strapi.log.warn(`[location-content] could not send the ${kind} alert: ${failureOf(err)}`);
    }
  };

  const checkStuck = async () => {
    const c = config();
    if (!c || Date.now() - lastProgressAt < (c.stuckMinutes ?? 15) * 60_000) return;
    if (!(await getService('settings', { strapi }).canPush())) return;
    const { due } = await getService('outbox', { strapi }).depth();
    if (due > 0) {
      const minutes = Math.round((Date.now() - lastProgressAt) / 60_000);
      await raise(
        'stuck',
        'The sync queue is stuck',
        `${due} change(s) are due and no push has finished for ${minutes} minutes.`
      );
    }
  };

  return {
    /** every push attempt: progress for the stuck check, refused credentials */
    pushed(result: PushResult) {
      // A row that leaves the queue is progress, a failure given up on included; one retried is not.
      if (result.kind !== 'failed' || !result.retryable) lastProgressAt = Date.now();
      if (result.kind === 'failed' && result.httpStatus === 401)
        void raise(
          'credentials',
          'The remote refused the credentials',
          `The Location Content API answered 401: ${result.reason}\nCheck the client id and secret in Settings > Location Content.`
        );
    },
    /** the saved client secret cannot be opened with this app's keys: nothing is pushed until it is entered again */
    secretUnreadable(reason: string) {
      void raise('credentials', 'The stored client secret cannot be read', reason);
    },
    /** an entry that will not be retried by itself */
    failed(key: EntryKey, reason: string) {
      void raise(
        'failed',
        `An entry failed: ${keyLabel(key)}`,
        `${keyLabel(key)} could not be pushed and will not be retried by itself:\n${reason}`
      );
    },
    start() {
      lastProgressAt = Date.now();
      timer = setInterval(
        () => void checkStuck().catch(() => undefined),
        checkEveryMs(config()?.stuckMinutes)
      );
      timer.unref();
    },
    stop: () => clearInterval(timer),
    /** the settings page's button: sent whatever the interval, to every configured channel */
    sendTest: () =>
      deliver(
        message('test', 'Test alert', 'This is a test alert sent from Settings > Location Content.')
      ),
  };
}
