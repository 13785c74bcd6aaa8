/**
 * The booted app over HTTP: the plugin's routes are guarded and answer an admin, its content types
 * are registered, and entries reach the Location Content API emulator on create and on publish;
 * then the admin in a browser, on the entry that was synced.
 */
import type { EmulatorHandle } from '../../emulator/src';
import { adminBrowserChecks, type AdminBrowserTarget } from './admin-browser';
import { ADMIN_EMAIL, PASSWORD, PLUGIN_ID } from './config';
import { http, short } from './http';
import { sleep, waitFor } from './processes';
import { assert, check } from './report';

/** One mapping as GET /mappings reports it: only what the check reads. */
interface MappingReport {
  contentType: string;
  active?: boolean;
  problems?: unknown[];
}

/** GET /mappings has answered a bare list and a wrapped one; either passes. */
type MappingsReply = MappingReport[] | { mappings?: MappingReport[]; data?: MappingReport[] };

export async function runningAppChecks(base: string, emu: EmulatorHandle): Promise<void> {
  await check('the built admin is served at /admin', async () => {
    const r = await http(base, 'GET', '/admin');
    assert(r.status === 200 && /<html/i.test(r.text), short(r));
  });
  await check(`the plugin's admin routes answer 401 without a token`, async () => {
    for (const url of [
      `/${PLUGIN_ID}/settings`,
      `/${PLUGIN_ID}/status`,
      `/${PLUGIN_ID}/mappings`,
    ]) {
      const r = await http(base, 'GET', url);
      assert(r.status === 401, `GET ${url}: ${short(r)}`);
    }
  });

  let token: string | undefined;
  await check('a super admin registers on the fresh app (POST /admin/register-admin)', async () => {
    const r = await http<{ data?: { token?: string } }>(base, 'POST', '/admin/register-admin', {
      body: { firstname: 'Package', lastname: 'Test', email: ADMIN_EMAIL, password: PASSWORD },
    });
    assert(r.status === 200 || r.status === 201, short(r));
    token = r.body?.data?.token;
    assert(token, `no token in ${short(r)}`);
  });

  if (token) {
    const auth = { token };
    await check(
      `GET /${PLUGIN_ID}/settings with the admin JWT: 200, base URL from config, no secret`,
      async () => {
        const r = await http(base, 'GET', `/${PLUGIN_ID}/settings`, auth);
        assert(r.status === 200, short(r));
        assert(r.text.includes(emu.baseUrl), `the base URL ${emu.baseUrl} is not in ${short(r)}`);
        assert(!r.text.includes(emu.clientSecret), 'the client secret went out in the answer');
      }
    );
    await check(
      `GET /${PLUGIN_ID}/mappings: both mappings active, no problems against the app's models`,
      async () => {
        const r = await http<MappingsReply>(base, 'GET', `/${PLUGIN_ID}/mappings`, auth);
        assert(r.status === 200, short(r));
        const mappings: MappingReport[] = Array.isArray(r.body)
          ? r.body
          : (r.body?.mappings ?? r.body?.data ?? []);
        for (const uid of ['api::venue.venue', 'api::landmark.landmark']) {
          const m = mappings.find((x) => x.contentType === uid);
          assert(m, `${uid} missing from ${short(r)}`);
          assert(
            m.active !== false && !((m.problems?.length ?? 0) > 0),
            `${uid}: ${JSON.stringify(m)}`
          );
        }
      }
    );
    await check(`GET /${PLUGIN_ID}/status: 200`, async () => {
      const r = await http(base, 'GET', `/${PLUGIN_ID}/status`, auth);
      assert(r.status === 200, short(r));
    });
    await check("the plugin's hidden content types are registered", async () => {
      const r = await http<{ data?: Array<{ uid: string }> }>(
        base,
        'GET',
        '/content-type-builder/content-types',
        auth
      );
      assert(r.status === 200, short(r));
      const uids = (r.body?.data ?? []).map((ct) => ct.uid);
      const ours = uids.filter((uid) => uid.startsWith(`plugin::${PLUGIN_ID}.`));
      assert(
        ours.length >= 2,
        `plugin::${PLUGIN_ID}.* content types: ${ours.join(', ') || 'none'}`
      );
    });

    const pinpointNamed = (name: string) => emu.state().pinpoints.find((p) => p.name === name);
    /** Waits for the plugin to push `name`, then checks where it put it. */
    const pinpointAt = async (name: string, latitude: number, longitude: number) => {
      const pinpoint = await waitFor(
        `pinpoint "${name}" on the emulator`,
        () => pinpointNamed(name),
        30_000
      );
      assert(
        Math.abs(pinpoint.latitude - latitude) < 1e-6 &&
          Math.abs(pinpoint.longitude - longitude) < 1e-6,
        `coordinates: ${JSON.stringify(pinpoint)}`
      );
      return pinpoint;
    };
    await check(
      'a venue created in the Content Manager (no draft & publish) reaches the emulator as a pinpoint',
      async () => {
        const name = `Package Test Venue ${Date.now()}`;
        const r = await http(base, 'POST', '/content-manager/collection-types/api::venue.venue', {
          ...auth,
          body: { name, location: { lat: 48.8584, lng: 2.2945 } },
        });
        assert(r.status === 200 || r.status === 201, short(r));
        await pinpointAt(name, 48.8584, 2.2945);
      }
    );
    let synced: AdminBrowserTarget['synced'] | undefined;
    await check(
      'a landmark draft stays local; its publish reaches the emulator; the entry route shows the remote id',
      async () => {
        const title = `Package Test Landmark ${Date.now()}`;
        const uid = 'api::landmark.landmark';
        const created = await http<{ data?: { documentId?: string } }>(
          base,
          'POST',
          `/content-manager/collection-types/${uid}`,
          {
            ...auth,
            body: {
              title,
              summary: 'A **landmark** from the package test.',
              lat: 45.764,
              lng: 4.8357,
            },
          }
        );
        assert(created.status === 200 || created.status === 201, `create: ${short(created)}`);
        const documentId = created.body?.data?.documentId;
        assert(documentId, `no documentId in ${short(created)}`);
        await sleep(2_000);
        assert(!pinpointNamed(title), 'the draft was pushed before any publish');
        const published = await http(
          base,
          'POST',
          `/content-manager/collection-types/${uid}/${documentId}/actions/publish`,
          { ...auth, body: {} }
        );
        assert(
          published.status === 200 || published.status === 201,
          `publish: ${short(published)}`
        );
        const pinpoint = await pinpointAt(title, 45.764, 4.8357);
        assert(
          /<strong>landmark<\/strong>/.test(pinpoint.description ?? ''),
          `description: ${JSON.stringify(pinpoint.description)}`
        );
        const entry = await waitFor(
          'the entry route to show the remote id',
          async () => {
            const r = await http(base, 'GET', `/${PLUGIN_ID}/entries/${uid}/${documentId}`, auth);
            if (r.status !== 200) throw new Error(short(r));
            return r.text.includes(String(pinpoint.id)) ? r : undefined;
          },
          15_000
        );
        assert(entry.status === 200, short(entry));
        synced = { uid, documentId, title };
      }
    );

    if (synced) {
      await adminBrowserChecks(
        { base, email: ADMIN_EMAIL, password: PASSWORD, pluginId: PLUGIN_ID, synced },
        check
      );
    }
  }
}
