/**
 * Preview: the payload an entry would send now, draft and published, through the push's own
 * mapping, without a remote call.
 */
import type { Core } from '@strapi/strapi';
import type { PayloadPreview } from '../../../../shared/contracts/preview';
import type { Mapping } from '../../config/types';
import { mapEntry, MappingError, populateFor } from '../../mapping';
import { documentsOf, modelOf } from '../shared/strapi';
import type { EntryKey } from '../shared/types';
import { toKey } from '../shared/keys';
import { extend } from '../../utils/objects';
import { getService } from '../../utils';

/** Media are described (name, type, size), not read. */
export function createPreview(strapi: Core.Strapi) {
  const pusher = () => getService('push', { strapi });

  const one = async (
    key: EntryKey,
    mapping: Mapping,
    version: 'draft' | 'published'
  ): Promise<PayloadPreview> => {
    const params: Record<string, unknown> = {
      documentId: key.documentId,
      populate: populateFor(mapping, (uid) => modelOf(strapi, uid)),
      status: version,
    };
    if (pusher().isLocalized(key.contentType)) params.locale = key.locale;
    const entry = await documentsOf(strapi, key.contentType).findOne(params);
    const empty = { version, payload: null, waitsFor: [], problems: [] };
    if (!entry)
      return extend(empty, {
        skipped: version === 'published' ? 'not published: nothing is online' : 'no draft',
      });
    try {
      const outcome = await mapEntry(mapping, entry, pusher().mappingContext());
      if (outcome.action === 'skip') return extend(empty, { skipped: outcome.reason });
      const payload: Record<string, unknown> = { ...outcome.payload };
      for (const m of outcome.deferredMedia ?? [])
        payload[m.remoteField] = {
          name: m.name,
          mime: m.file.mime ?? null,
          sizeKb: m.file.size ?? null,
        };
      return {
        version,
        payload,
        waitsFor: outcome.unresolved.map((u) =>
          extend(toKey(u), { role: u.role, blocking: u.blocking })
        ),
        problems: [],
        skipped: null,
      };
    } catch (err) {
      if (!(err instanceof MappingError)) throw err;
      return extend(empty, { problems: err.problems, skipped: null });
    }
  };

  return async (key: EntryKey): Promise<PayloadPreview[]> => {
    const mapping = getService('mappings', { strapi }).forContentType(key.contentType);
    if (!mapping) throw new Error(`${key.contentType} is not mapped`);
    const versions: Array<'draft' | 'published'> = pusher().hasDraftAndPublish(key.contentType)
      ? ['draft', 'published']
      : ['published'];
    return Promise.all(versions.map((v) => one(key, mapping, v)));
  };
}
