import type { DocumentActionComponent } from '@strapi/content-manager/strapi-admin';
import { PaperPlane } from '@strapi/icons';
import { useFetchClient, useNotification, useRBAC } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { announcePush } from '../hooks/pushEvents';
import { useMappings } from '../hooks/useMappings';
import { useCurrentLocale } from '../hooks/useLocale';
import { SYNC_PERMISSIONS } from '../permissions';
import { API, errorMessage } from '../utils/api';
import { getTranslation } from '../utils/getTranslation';

/** Made once: descriptions are deep-compared on every render (see PushSelectedAction). */
const ICON = <PaperPlane />;

/** Queues one entry now; the push itself runs in the background and the side panel follows it. */
export const PushNowAction: DocumentActionComponent = ({
  model,
  documentId,
  document,
  collectionType,
}) => {
  const { formatMessage } = useIntl();
  const { post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { allowedActions, isLoading } = useRBAC(SYNC_PERMISSIONS);
  const { activeFor } = useMappings(!isLoading && allowedActions.canRead);
  const locale = useCurrentLocale();
  const mapping = activeFor(model);
  const id =
    collectionType === 'single-types' ? (document?.documentId as string | undefined) : documentId;

  if (!allowedActions.canTrigger || !mapping || !id || id === 'create') return null;

  return {
    label: formatMessage({ id: getTranslation('action.pushNow'), defaultMessage: 'Push now' }),
    icon: ICON,
    position: ['panel', 'table-row'],
    onClick: async () => {
      try {
        await post(API.push, {
          contentType: model,
          documentIds: [id],
          locale: mapping.localized ? (locale ?? document?.locale) : undefined,
        });
        announcePush({ contentType: model, documentIds: [id] });
        toggleNotification({
          type: 'success',
          message: formatMessage({
            id: getTranslation('action.pushNow.queued'),
            defaultMessage: 'Queued: the published version is pushed in the background.',
          }),
        });
      } catch (err) {
        toggleNotification({ type: 'danger', message: errorMessage(err) });
      }
    },
  };
};
