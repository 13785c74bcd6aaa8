/**
 * The plugin's admin API over real HTTP, with the credentials set in config/plugins: those fields
 * are locked in Settings, and no answer carries the secret.
 */
import { startApp, removeDir, type TestApp } from '../helpers/strapi';
import { bodies, client, createAdmin } from '../helpers/admin-api';

describe('admin API with credentials from config/plugins', () => {
  let app: TestApp;
  let api: ReturnType<typeof client>;
  let admin: string;

  beforeAll(async () => {
    app = await startApp({ http: true });
    api = client(app);
    admin = await createAdmin(app, 'admin@example.com', [
      (await app.strapi.service('admin::role').getSuperAdmin()).id,
    ]);
  });

  afterAll(async () => {
    await app?.stop();
    if (app) await removeDir(app.appDir);
  });

  test('fields set in config are locked, with the reason, and cannot be changed here', async () => {
    const res = await api('GET', '/location-content/settings', { token: admin });
    expect(res.body.settings).toMatchObject({
      baseUrl: app.emulator.baseUrl,
      clientId: app.emulator.clientId,
      secretSet: true,
      configured: true,
    });
    expect(Object.keys(res.body.settings.locked).sort()).toEqual([
      'baseUrl',
      'clientId',
      'clientSecret',
    ]);
    expect(res.body.settings.locked.clientSecret).toMatch(/config\/plugins/);

    const change = await api('PUT', '/location-content/settings', {
      token: admin,
      body: { clientId: 'other' },
    });
    expect(change.status).toBe(400);
    expect(change.body.error.message).toMatch(/Client id is set in config\/plugins/);
    // The same values sent back are harmless.
    const same = await api('PUT', '/location-content/settings', {
      token: admin,
      body: { baseUrl: app.emulator.baseUrl, clientSecret: '' },
    });
    expect(same.status).toBe(200);

    const test = await api('POST', '/location-content/settings/test', { token: admin, body: {} });
    expect(test.body.result).toMatchObject({ ok: true, pinpoints: 0 });
  });

  test('no answer carried the secret', () => {
    expect(bodies.join('\n')).not.toContain(app.emulator.clientSecret);
  });
});
