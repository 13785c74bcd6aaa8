import * as React from 'react';
import { getFetchClient } from '@strapi/strapi/admin';
import type { MappingView } from '../../../shared/contracts/mappings';
import { API } from '../utils/api';

/**
 * Mappings come from config/plugins and only change with a restart: one request per page load, shared by
 * every panel, action and row. The request is made with a client that no component owns: a component's
 * own client (useFetchClient) aborts its requests when it unmounts, which would fail the shared request
 * for all the others.
 */
let cache: Promise<MappingView[]> | null = null;

const load = () => {
  cache ??= getFetchClient()
    .get<{ mappings: MappingView[] }>(API.mappings)
    .then(
      (res) => res.data.mappings,
      (err) => {
        cache = null;
        throw err;
      }
    );
  return cache;
};

/** The mapped content types, for views that only show up on them. `enabled: false` skips the request (no permission). */
export function useMappings(enabled = true) {
  const [state, setState] = React.useState<{ mappings: MappingView[] | null; error: unknown }>({
    mappings: null,
    error: null,
  });

  React.useEffect(() => {
    if (!enabled) return;
    let live = true;
    load().then(
      (mappings) => live && setState({ mappings, error: null }),
      (error) => live && setState({ mappings: null, error })
    );
    return () => {
      live = false;
    };
  }, [enabled]);

  return {
    mappings: state.mappings,
    error: state.error,
    isLoading: enabled && !state.mappings && !state.error,
    /** the active mapping of a content type; inactive ones (with problems) are not synced */
    activeFor: (uid: string | undefined) =>
      state.mappings?.find((m) => m.contentType === uid && m.active),
  };
}
