import type { DocumentActionComponent } from '@strapi/content-manager/strapi-admin';
import { PaperPlane } from '@strapi/icons';
import { useNotification, useRBAC } from '@strapi/strapi/admin';
import { useCurrentLocale } from '../hooks/useLocale';
import { useT } from '../hooks/useT';
import { SYNC_PERMISSIONS } from '../permissions';
import { useMappings, usePushEntriesMutation } from '../services/api';
import { useRequestError } from '../services/errors';

/** Made once: descriptions are deep-compared on every render (see PushSelectedAction). */
const ICON = <PaperPlane />;

/** Queues one entry now; the push itself runs in the background and the side panel follows it. */
export const PushNowAction: DocumentActionComponent = ({
  model,
  documentId,
  document,
  collectionType,
}) => {
  const t = useT();
  const { toggleNotification } = useNotification();
  const { notify } = useRequestError();
  const [push] = usePushEntriesMutation();
  const { allowedActions, isLoading } = useRBAC(SYNC_PERMISSIONS);
  const { activeFor } = useMappings(!isLoading && allowedActions.canRead);
  const locale = useCurrentLocale();
  const mapping = activeFor(model);
  const id =
    collectionType === 'single-types' ? (document?.documentId as string | undefined) : documentId;

  if (!allowedActions.canTrigger || !mapping || !id || id === 'create') return null;

  return {
    label: t('action.pushNow', 'Push now'),
    icon: ICON,
    position: ['panel', 'table-row'],
    onClick: async () => {
      const res = await push({
        contentType: model,
        documentIds: [id],
        locale: mapping.localized
          ? (locale ?? (document?.locale as string | undefined))
          : undefined,
      });
      if ('error' in res) return notify(res.error);
      toggleNotification({
        type: 'success',
        message: t(
          'action.pushNow.queued',
          'Queued: the published version is pushed in the background.'
        ),
      });
    },
  };
};
