import * as React from 'react';
import { useFetchClient } from '@strapi/strapi/admin';
import type { MappingView } from '../types';
import { API } from '../utils/api';

/** Mappings come from config/plugins and only change with a restart: one request per page load. */
let cache: Promise<MappingView[]> | null = null;

type Get = ReturnType<typeof useFetchClient>['get'];

const load = (get: Get) => {
  cache ??= get<{ mappings: MappingView[] }>(API.mappings).then(
    (res) => res.data.mappings,
    (err) => {
      cache = null;
      throw err;
    },
  );
  return cache;
};

/** The mapped content types, for views that only show up on them. `enabled: false` skips the request (no permission). */
export function useMappings(enabled = true) {
  const { get } = useFetchClient();
  const [state, setState] = React.useState<{ mappings: MappingView[] | null; error: unknown }>({ mappings: null, error: null });

  React.useEffect(() => {
    if (!enabled) return;
    let live = true;
    load(get).then(
      (mappings) => live && setState({ mappings, error: null }),
      (error) => live && setState({ mappings: null, error }),
    );
    return () => {
      live = false;
    };
  }, [enabled, get]);

  return {
    mappings: state.mappings,
    error: state.error,
    isLoading: enabled && !state.mappings && !state.error,
    /** the active mapping of a content type; inactive ones (with problems) are not synced */
    activeFor: (uid: string | undefined) => state.mappings?.find((m) => m.contentType === uid && m.active),
  };
}
