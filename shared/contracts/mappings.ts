/** The mappings route of the admin API: config/plugins' mappings as the admin shows them (read-only). */
import type { ResourceKind } from './remote';

export interface MappingView {
  index: number;
  contentType: string;
  /** the content type's display name, or its uid when the type does not exist */
  displayName: string;
  kind: 'collectionType' | 'singleType' | null;
  localized: boolean;
  draftAndPublish: boolean;
  resource: ResourceKind;
  fields: Record<string, unknown>;
  hasTransform: boolean;
  problems: string[];
  /** the mapping works but loses something on this database (e.g. coordinates in a 2-decimal column) */
  warnings: string[];
  active: boolean;
}

/** GET /location-content/mappings */
export declare namespace ListMappings {
  export interface Response {
    mappings: MappingView[];
  }
}
