import type { Core } from '@strapi/strapi';
import type { Mapping, PluginConfig } from '../config/types';
import { validateMappingFields } from '../mapping';
import { PLUGIN_ID } from '../permissions';
import type { MappingView as AdminMappingView } from '../../../shared/contracts/mappings';

/** A mapping as checked here; the admin's view (the contract's) adds what the content type says of itself. */
export type MappingView = Omit<AdminMappingView, 'displayName' | 'kind' | 'localized' | 'draftAndPublish'>;

/** The mappings of config/plugins checked against the content models; a broken mapping is left out, not guessed. */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  let views: MappingView[] | null = null;

  const check = (): MappingView[] => {
    const config = strapi.config.get(`plugin::${PLUGIN_ID}`) as PluginConfig;
    const getModel = (uid: string) => strapi.getModel(uid as any) as any;
    return (config.mappings ?? []).map((mapping, index) => {
      const problems: string[] = [];
      if (!strapi.contentTypes[mapping.contentType as keyof typeof strapi.contentTypes]) {
        problems.push(`mappings[${index}].contentType: '${mapping.contentType}' is not a content type of this app`);
      } else {
        problems.push(...validateMappingFields(mapping, getModel, { index, mappings: config.mappings }));
      }
      return {
        index,
        contentType: mapping.contentType,
        resource: mapping.resource,
        fields: JSON.parse(JSON.stringify(mapping.fields ?? {})),
        hasTransform: typeof mapping.transform === 'function',
        problems,
        active: problems.length === 0,
      };
    });
  };

  const list = () => (views ??= check());

  return {
    list,
    /** logs every problem once at boot */
    report() {
      for (const v of list()) {
        for (const p of v.problems) strapi.log.error(`[location-content] ${p} — this mapping is disabled until it is fixed.`);
      }
    },
    active(): Mapping[] {
      const config = strapi.config.get(`plugin::${PLUGIN_ID}`) as PluginConfig;
      return list()
        .filter((v) => v.active)
        .map((v) => config.mappings[v.index]);
    },
    forContentType(uid: string): Mapping | undefined {
      return this.active().find((m) => m.contentType === uid);
    },
  };
};
