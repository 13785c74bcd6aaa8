/**
 * The admin API in tests: an HTTP client that keeps every answer body (the admin-routes-*.test.ts
 * files), admin users logged in and roles, the super admin of the browser tests and the demo (every test that calls the admin routes), and a port
 * nothing listens on.
 */
import net from 'node:net';
import type { Core } from '@strapi/strapi';
import type { PlaygroundConfig } from './app-dir';
import type { TestApp } from './strapi';

const PASSWORD = 'Str0ngPassw0rd!';

/** Removes the credentials of the playground config, so an admin can set them in Settings. */
export const withoutCredentials = (config: PlaygroundConfig) => {
  const lc = config['location-content'].config;
  delete lc.baseUrl;
  delete lc.clientId;
  delete lc.clientSecret;
  return config;
};

export interface Reply {
  status: number;
  body: any;
  text: string;
}

/** Every answer body of the whole file, to check that no secret ever went out. */
export const bodies: string[] = [];

export const client =
  (app: TestApp) =>
  async (
    method: string,
    path: string,
    opts: { token?: string; body?: unknown; raw?: string } = {}
  ): Promise<Reply> => {
    const headers: Record<string, string> = {};
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined || opts.raw !== undefined)
      headers['Content-Type'] = 'application/json';
    const res = await fetch(`${app.url}${path}`, {
      method,
      headers,
      body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
    });
    const text = await res.text();
    bodies.push(text);
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    return { status: res.status, body, text };
  };

/**
 * The super admin a browser test (tests/e2e/browser.ts logIn) or the demo logs in as; kept when it
 * exists (the demo's playground keeps its database between runs).
 */
export async function ensureSuperAdmin(
  strapi: Core.Strapi,
  user: { email: string; password: string; firstname: string; lastname: string }
) {
  const users = strapi.service('admin::user');
  if (await users.exists({ email: user.email })) return;
  const superAdmin = await strapi.service('admin::role').getSuperAdmin();
  await users.create({
    ...user,
    isActive: true,
    registrationToken: null,
    roles: superAdmin ? [superAdmin.id] : [],
  });
}

export async function createAdmin(app: TestApp, email: string, roleIds: Array<number | string>) {
  await app.strapi.service('admin::user').create({
    email,
    firstname: email.split('@')[0],
    lastname: 'Test',
    password: PASSWORD,
    isActive: true,
    roles: roleIds,
  });
  const res = await fetch(`${app.url}/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const json = (await res.json()) as { data?: { token?: string } } | null;
  if (!json?.data?.token) throw new Error(`login failed for ${email}: ${JSON.stringify(json)}`);
  return json.data.token as string;
}

export async function createRole(
  app: TestApp,
  name: string,
  actions: Array<{ action: string; subject?: string | null }>
) {
  const role = await app.strapi.service('admin::role').create({ name, description: name });
  await app.strapi.service('admin::role').assignPermissions(
    role.id,
    actions.map((a) => ({
      action: a.action,
      subject: a.subject ?? null,
      properties: {},
      conditions: [],
    }))
  );
  return role;
}

/** A port nothing listens on: opened, then closed. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The plugin's admin routes (`/location-content…`) as an admin with `token` calls them. */
export const pluginApi = (
  app: TestApp,
  method: string,
  path: string,
  token?: string,
  body?: unknown
) => client(app)(method, `/location-content${path}`, { token, body });
