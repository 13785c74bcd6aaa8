/**
 * Every request the admin makes, as RTK Query endpoints injected into Strapi's `adminApi` (the
 * model is content-releases' `admin/src/services/release.ts`). The store is the admin's own, so
 * the side panel, the document actions and the pages share one cache; a mutation invalidates the
 * tags of what it changes, and the queries that show those tags are asked again.
 */
import { adminApi } from '@strapi/strapi/admin';
import type { SendTestAlert } from '../../../shared/contracts/alerts';
import type { CheckDrift, GetDrift, RepairDrift } from '../../../shared/contracts/drift';
import type { GetEntryHistory } from '../../../shared/contracts/history';
import type {
  ConfirmLinks,
  GetInventory,
  GetLinkProposal,
  RunInventory,
} from '../../../shared/contracts/inventory';
import type { DryRunImport, GetImport, StartImport } from '../../../shared/contracts/import';
import type { ListMappings } from '../../../shared/contracts/mappings';
import { PLUGIN_ID } from '../../../shared/contracts/permissions';
import type { GetPayloadPreview } from '../../../shared/contracts/preview';
import type {
  GetSettings,
  TestConnection,
  UpdateSettings,
} from '../../../shared/contracts/settings';
import type {
  DryRunPlan,
  GetEntry,
  GetStatus,
  PushEntries,
  ResyncProgress,
  RetryFailed,
} from '../../../shared/contracts/sync';

/** One entry of the Content Manager; `locale` only on localized content types. */
export interface EntryArgs {
  contentType: string;
  documentId: string;
  locale?: string;
  /**
   * Not sent: it changes when the editor saves or publishes (or the entry's state moves), which
   * makes it another query, asked for at once, while the hook keeps showing the last answer.
   */
  version?: string;
}

const entryUrl = ({ contentType, documentId }: EntryArgs, tail = '') =>
  `/${PLUGIN_ID}/entries/${encodeURIComponent(contentType)}/${encodeURIComponent(documentId)}${tail}`;
const localeParams = ({ locale }: EntryArgs) => ({ params: locale ? { locale } : undefined });
/** The tag of one entry: its panel (state, history) is read again when it is pushed. */
const entryTag = (contentType: string, documentId: string) =>
  ({ type: 'LocationContentEntry', id: `${contentType}|${documentId}` }) as const;

/** Whatever pushes entries may change every panel, the dashboard's counts and the drift report. */
const ALL_SYNC = ['LocationContentEntry', 'LocationContentStatus', 'LocationContentDrift'] as const;

const api = adminApi
  .enhanceEndpoints({
    addTagTypes: [
      'LocationContentSettings',
      'LocationContentMappings',
      'LocationContentStatus',
      'LocationContentEntry',
      'LocationContentInventory',
      'LocationContentDrift',
      'LocationContentImport',
    ],
  })
  .injectEndpoints({
    endpoints: (build) => ({
      locationContentGetSettings: build.query<GetSettings.Response, void>({
        query: () => `/${PLUGIN_ID}/settings`,
        providesTags: ['LocationContentSettings'],
      }),
      locationContentUpdateSettings: build.mutation<
        UpdateSettings.Response,
        UpdateSettings.Request['body']
      >({
        query: (data) => ({ url: `/${PLUGIN_ID}/settings`, method: 'PUT', data }),
        // The form resets to what was saved as soon as the answer lands, not one request later.
        async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
          const { data } = await queryFulfilled.catch(() => ({ data: null }));
          if (!data) return;
          dispatch(
            api.util.updateQueryData('locationContentGetSettings', undefined, (draft) => {
              draft.settings = data.settings;
            })
          );
        },
        invalidatesTags: ['LocationContentStatus'],
      }),
      locationContentTestConnection: build.mutation<
        TestConnection.Response,
        TestConnection.Request['body']
      >({
        query: (data) => ({ url: `/${PLUGIN_ID}/settings/test`, method: 'POST', data }),
      }),
      locationContentSendTestAlert: build.mutation<SendTestAlert.Response, void>({
        query: () => ({ url: `/${PLUGIN_ID}/alerts/test`, method: 'POST', data: {} }),
      }),

      // Mappings come from config/plugins and only change with a restart: read once per page load.
      locationContentGetMappings: build.query<ListMappings.Response['mappings'], void>({
        query: () => `/${PLUGIN_ID}/mappings`,
        transformResponse: (res: ListMappings.Response) => res.mappings,
        providesTags: ['LocationContentMappings'],
        keepUnusedDataFor: 24 * 60 * 60,
      }),

      locationContentGetStatus: build.query<GetStatus.Response, void>({
        query: () => `/${PLUGIN_ID}/status`,
        providesTags: ['LocationContentStatus'],
      }),
      locationContentGetEntry: build.query<GetEntry.Response, EntryArgs>({
        query: (args) => ({ url: entryUrl(args), config: localeParams(args) }),
        providesTags: (_res, _err, { contentType, documentId }) => [
          entryTag(contentType, documentId),
        ],
      }),
      locationContentGetHistory: build.query<GetEntryHistory.Response, EntryArgs>({
        query: (args) => ({ url: entryUrl(args, '/history'), config: localeParams(args) }),
        providesTags: (_res, _err, { contentType, documentId }) => [
          entryTag(contentType, documentId),
        ],
      }),
      locationContentGetPreview: build.query<GetPayloadPreview.Response, EntryArgs>({
        query: (args) => ({ url: entryUrl(args, '/preview'), config: localeParams(args) }),
        // A preview is of the entry as it is now: never answered from the cache.
        keepUnusedDataFor: 0,
      }),
      locationContentPushEntries: build.mutation<PushEntries.Response, PushEntries.Request['body']>(
        {
          query: (data) => ({ url: `/${PLUGIN_ID}/push`, method: 'POST', data }),
          invalidatesTags: (_res, _err, { contentType, documentIds }) => [
            ...documentIds.map((id) => entryTag(contentType, id)),
            'LocationContentStatus',
          ],
        }
      ),
      locationContentStartResync: build.mutation<{ job: ResyncProgress }, void>({
        query: () => ({ url: `/${PLUGIN_ID}/resync`, method: 'POST', data: { dryRun: false } }),
        invalidatesTags: [...ALL_SYNC],
      }),
      locationContentDryRun: build.mutation<{ plan: DryRunPlan }, void>({
        query: () => ({ url: `/${PLUGIN_ID}/resync`, method: 'POST', data: { dryRun: true } }),
      }),
      locationContentRetryFailed: build.mutation<RetryFailed.Response, void>({
        query: () => ({ url: `/${PLUGIN_ID}/retry-failed`, method: 'POST', data: {} }),
        invalidatesTags: [...ALL_SYNC],
      }),

      locationContentGetInventory: build.query<GetInventory.Response['inventory'], void>({
        query: () => `/${PLUGIN_ID}/inventory`,
        transformResponse: (res: GetInventory.Response) => res.inventory,
        providesTags: ['LocationContentInventory'],
      }),
      locationContentRunInventory: build.mutation<RunInventory.Response, void>({
        query: () => ({ url: `/${PLUGIN_ID}/inventory`, method: 'POST', data: {} }),
        invalidatesTags: ['LocationContentInventory', 'LocationContentStatus'],
      }),
      locationContentGetLinkProposal: build.query<GetLinkProposal.Response['proposal'], void>({
        query: () => `/${PLUGIN_ID}/link`,
        transformResponse: (res: GetLinkProposal.Response) => res.proposal,
        keepUnusedDataFor: 0,
      }),
      locationContentConfirmLinks: build.mutation<ConfirmLinks.Response, ConfirmLinks.Request>({
        query: (data) => ({ url: `/${PLUGIN_ID}/link`, method: 'POST', data }),
        invalidatesTags: [...ALL_SYNC, 'LocationContentInventory'],
      }),

      locationContentGetImport: build.query<GetImport.Response['job'], void>({
        query: () => `/${PLUGIN_ID}/import`,
        transformResponse: (res: GetImport.Response) => res.job,
        providesTags: ['LocationContentImport'],
      }),
      locationContentDryRunImport: build.mutation<
        DryRunImport.Response,
        DryRunImport.Request['body']
      >({
        query: (data) => ({ url: `/${PLUGIN_ID}/import/dry-run`, method: 'POST', data }),
        // A dry run may walk an account never walked.
        invalidatesTags: ['LocationContentInventory'],
      }),
      locationContentStartImport: build.mutation<StartImport.Response, StartImport.Request['body']>(
        {
          query: (data) => ({ url: `/${PLUGIN_ID}/import`, method: 'POST', data }),
          invalidatesTags: [...ALL_SYNC, 'LocationContentInventory', 'LocationContentImport'],
        }
      ),

      locationContentGetDrift: build.query<GetDrift.Response, void>({
        query: () => `/${PLUGIN_ID}/drift`,
        providesTags: ['LocationContentDrift'],
      }),
      locationContentCheckDrift: build.mutation<CheckDrift.Response, void>({
        query: () => ({ url: `/${PLUGIN_ID}/drift/check`, method: 'POST', data: {} }),
        invalidatesTags: ['LocationContentDrift', 'LocationContentInventory'],
      }),
      locationContentRepairDrift: build.mutation<RepairDrift.Response, RepairDrift.Request>({
        query: (data) => ({ url: `/${PLUGIN_ID}/drift/repair`, method: 'POST', data }),
        invalidatesTags: [...ALL_SYNC, 'LocationContentInventory'],
      }),
    }),
  });

/** Polling: every second while something moves (resync, queue, walk, check), else every few seconds. */
const FAST_MS = 1000;
const SLOW_MS = 5000;
const WIDGET_MS = 15_000;
/** The side panel while its push is queued or running; slower while it waits on another entry. */
const ENTRY_QUEUED_MS = 1500;
const ENTRY_WAITING_MS = 5000;

/**
 * Every view reads its data afresh when it mounts (a cached answer is shown meanwhile): the
 * worker changes states behind the admin's back, so a remembered answer may be stale.
 */
const FRESH = { refetchOnMountOrArgChange: true } as const;

/** The dashboard's report, asked for again faster while a resync runs or the queue holds work. */
export function useSyncStatus() {
  const { data } = api.endpoints.locationContentGetStatus.useQueryState();
  const moving = Boolean(
    data && (data.resync?.state === 'running' || data.queue.depth > 0 || data.queue.inFlight > 0)
  );
  return api.endpoints.locationContentGetStatus.useQuery(undefined, {
    ...FRESH,
    pollingInterval: moving ? FAST_MS : SLOW_MS,
  });
}

/** The homepage widget's counts: the same report, read now and then (it is a summary). */
export const useSyncSummary = () =>
  api.endpoints.locationContentGetStatus.useQuery(undefined, {
    ...FRESH,
    pollingInterval: WIDGET_MS,
  });

/** The side panel's state of one entry, polled only while its push is on the way. */
export function useEntryState(args: EntryArgs) {
  const { data } = api.endpoints.locationContentGetEntry.useQueryState(args);
  const state = data?.state;
  const every = state?.queued
    ? ENTRY_QUEUED_MS
    : state?.status === 'pending'
      ? ENTRY_WAITING_MS
      : 0;
  return api.endpoints.locationContentGetEntry.useQuery(args, { ...FRESH, pollingInterval: every });
}

/** The last pushes of one entry; `args.version` carries the entry's state, so it follows it. */
export const useEntryHistory = (args: EntryArgs) =>
  api.endpoints.locationContentGetHistory.useQuery(args, FRESH);

export const useSettings = () =>
  api.endpoints.locationContentGetSettings.useQuery(undefined, FRESH);

/** The remote inventory, asked for again every second while a walk runs. */
export function useInventory() {
  const { data } = api.endpoints.locationContentGetInventory.useQueryState();
  return api.endpoints.locationContentGetInventory.useQuery(undefined, {
    ...FRESH,
    pollingInterval: data?.state === 'running' ? FAST_MS : SLOW_MS,
  });
}

/** The import job, asked for again every second while it runs; skipped without the trigger permission. */
export function useImportJob(enabled: boolean) {
  const { data } = api.endpoints.locationContentGetImport.useQueryState();
  return api.endpoints.locationContentGetImport.useQuery(undefined, {
    ...FRESH,
    skip: !enabled,
    pollingInterval: data?.state === 'running' ? FAST_MS : 0,
  });
}

/** The drift report, asked for again every second while a check runs, until it lands. */
export function useDrift() {
  const { data } = api.endpoints.locationContentGetDrift.useQueryState();
  return api.endpoints.locationContentGetDrift.useQuery(undefined, {
    ...FRESH,
    pollingInterval: data?.checking ? FAST_MS : 0,
  });
}

/** The mapped content types. `enabled: false` skips the request (no permission). */
export function useMappings(enabled = true) {
  const { data: mappings, isLoading } = api.endpoints.locationContentGetMappings.useQuery(
    undefined,
    {
      skip: !enabled,
    }
  );
  return {
    mappings,
    isLoading,
    /** the active mapping of a content type; inactive ones (with problems) are not synced */
    activeFor: (uid: string | undefined) =>
      mappings?.find((m) => m.contentType === uid && m.active),
  };
}

// Each endpoint is exported under a short name; their own names carry the plugin's, since every
// plugin injects into the same adminApi and an endpoint of the same name would be kept instead.
export const useUpdateSettingsMutation = api.endpoints.locationContentUpdateSettings.useMutation;
export const useTestConnectionMutation = api.endpoints.locationContentTestConnection.useMutation;
export const useSendTestAlertMutation = api.endpoints.locationContentSendTestAlert.useMutation;
export const useLazyGetPreviewQuery = api.endpoints.locationContentGetPreview.useLazyQuery;
export const usePushEntriesMutation = api.endpoints.locationContentPushEntries.useMutation;
export const useStartResyncMutation = api.endpoints.locationContentStartResync.useMutation;
export const useDryRunMutation = api.endpoints.locationContentDryRun.useMutation;
export const useRetryFailedMutation = api.endpoints.locationContentRetryFailed.useMutation;
export const useRunInventoryMutation = api.endpoints.locationContentRunInventory.useMutation;
export const useLazyGetLinkProposalQuery =
  api.endpoints.locationContentGetLinkProposal.useLazyQuery;
export const useConfirmLinksMutation = api.endpoints.locationContentConfirmLinks.useMutation;
export const useDryRunImportMutation = api.endpoints.locationContentDryRunImport.useMutation;
export const useStartImportMutation = api.endpoints.locationContentStartImport.useMutation;
export const useCheckDriftMutation = api.endpoints.locationContentCheckDrift.useMutation;
export const useRepairDriftMutation = api.endpoints.locationContentRepairDrift.useMutation;
