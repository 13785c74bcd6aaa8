import type { Core } from '@strapi/strapi';

const TABLE = 'strapi_core_store_settings';

/**
 * One alert of a kind per interval across every instance sharing the database: the right to send is
 * a compare-and-set on a row of Strapi's core store (the instance whose update matched the old value won).
 */
export async function claimAlert(
  strapi: Core.Strapi,
  kind: string,
  intervalMs: number,
  now = Date.now()
): Promise<boolean> {
  const db = strapi.db.connection;
  const key = `plugin_location-content_alert_${kind}`;
  const row = await db(TABLE).select('value').where({ key }).first();
  const next = JSON.stringify(now);
  if (!row) {
    try {
      await db(TABLE).insert({ key, value: next, type: 'number' });
      return true;
    } catch {
      // another instance inserted it first
      return false;
    }
  }
  const last = Number(JSON.parse(row.value ?? '0'));
  if (now - last < intervalMs) return false;
  const updated = await db(TABLE).where({ key, value: row.value }).update({ value: next });
  return Number(updated) === 1;
}
