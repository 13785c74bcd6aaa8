/**
 * Alerts for unattended installs, to a real webhook receiver on 127.0.0.1: a test alert, an entry that
 * failed for good, refused credentials, a stuck queue; one per kind per interval; never a secret.
 */
import type { AddressInfo } from 'node:net';
import type { AlertMessage } from '../../shared/contracts/alerts';
import http from 'node:http';
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import { setPluginConfig, until } from '../helpers/sync';
import { claimAlert } from '../../server/src/alerts/claim';

let app: TestApp;
let receiver: http.Server;
let webhook: string;
const received: Array<{
  contentType: string | undefined;
  method: string | undefined;
  body: AlertMessage;
}> = [];
const raw: string[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      raw.push(body);
      received.push({
        contentType: req.headers['content-type'],
        method: req.method,
        body: JSON.parse(body),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
  webhook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/location-content`;
  app = await startApp({
    patchConfig: (config) => {
      const lc = config['location-content'].config;
      // stuck after 3 s without a finished push
      lc.alerts = { webhook, stuckMinutes: 0.05, intervalMinutes: 60 };
      lc.retry = { baseMs: 20, maxMs: 100, maxAttempts: 2 };
      return config;
    },
  });
});

afterAll(async () => {
  await stopApp(app);
  await new Promise((r) => receiver.close(r));
});

const ofKind = (kind: string) => received.filter((r) => r.body.kind === kind);

test('a test alert reaches the webhook as JSON with a link to the dashboard', async () => {
  const result = await app.sync().alerts.sendTest();
  expect(result).toEqual({ email: null, webhook: { status: 204, error: null } });
  expect(ofKind('test')).toEqual([
    {
      method: 'POST',
      contentType: 'application/json',
      body: {
        kind: 'test',
        title: '[Location Content] Test alert',
        text: expect.stringContaining('Dashboard: '),
        dashboardUrl: expect.stringMatching(/\/admin\/plugins\/location-content$/),
        environment: 'test',
        at: expect.any(String),
      },
    },
  ]);
});

test('an entry that failed for good raises one alert; a second one within the interval does not', async () => {
  await createPlace(app.strapi, { title: 'Nowhere', geo: null });
  await app.sync().idle();
  const [alert] = (await until(
    () => (ofKind('failed').length ? ofKind('failed') : undefined),
    'the failed alert'
  ))!;
  expect(alert.body.title).toMatch(
    /^\[Location Content\] An entry failed: api::place\.place \w+ \(en\)$/
  );
  expect(alert.body.text).toContain('latitude: empty field geo (Geo point) › lat');
  await createPlace(app.strapi, { title: 'Nowhere either', geo: null });
  await app.sync().idle();
  await new Promise((r) => setTimeout(r, 500));
  expect(ofKind('failed')).toHaveLength(1);
});

test('the right to send is one compare-and-set: a second claim within the interval loses', async () => {
  expect(await claimAlert(app.strapi, 'probe', 60_000, 1_000_000)).toBe(true);
  expect(await claimAlert(app.strapi, 'probe', 60_000, 1_030_000)).toBe(false);
  expect(await claimAlert(app.strapi, 'probe', 60_000, 1_070_000)).toBe(true);
});

test('refused credentials raise their own alert, without the secret', async () => {
  setPluginConfig(app.strapi, 'clientSecret', 'a-wrong-secret-1234');
  app.sync().credentialsChanged();
  app.emulator.revokeTokens();
  await createPlace(app.strapi, { title: 'Refused' });
  await app.sync().idle();
  const [alert] = (await until(
    () => (ofKind('credentials').length ? ofKind('credentials') : undefined),
    'the credentials alert'
  ))!;
  expect(alert.body.title).toBe('[Location Content] The remote refused the credentials');
  // Every entry fails with the credentials: they do not raise entry alerts on top.
  expect(ofKind('failed')).toHaveLength(1);
  setPluginConfig(app.strapi, 'clientSecret', app.emulator.clientSecret);
  app.sync().credentialsChanged();
});

test('a queue with work due and no push finished for stuckMinutes raises the stuck alert', async () => {
  app.emulator.scriptFaults([
    { kind: 'latency', latencyMs: 4500, method: 'POST', pathPrefix: '/v3.0/pinpoints' },
  ]);
  await createPlace(app.strapi, { title: 'Slow' });
  const [alert] = (await until(
    () => (ofKind('stuck').length ? ofKind('stuck') : undefined),
    'the stuck alert',
    30_000
  ))!;
  expect(alert.body.text).toMatch(/change\(s\) are due and no push has finished for \d+ minutes/);
  await app.sync().idle();
});

test('no alert carries a secret or a token', () => {
  const all = raw.join('\n');
  expect(all).not.toContain(app.emulator.clientSecret);
  expect(all).not.toContain('a-wrong-secret-1234');
  expect(all).not.toMatch(/Bearer|access_token/);
});
