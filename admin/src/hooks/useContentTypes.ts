import * as React from 'react';
import type { MappingView } from '../../../shared/contracts/mappings';
import { useMappings } from '../services/api';

/** Display names and kinds of the mapped content types, for the dashboard's lists and links. */
export function useContentTypes() {
  const { mappings } = useMappings(true);
  const byUid = React.useMemo(
    () => new Map<string, MappingView>((mappings ?? []).map((m) => [m.contentType, m])),
    [mappings]
  );
  return {
    names: (uid: string) => byUid.get(uid)?.displayName ?? uid,
    kindOf: (uid: string) => byUid.get(uid)?.kind ?? 'collectionType',
  };
}
