import type { BulkActionComponent } from '@strapi/content-manager/strapi-admin';
import { PaperPlane } from '@strapi/icons';
import { useNotification, useRBAC } from '@strapi/strapi/admin';
import { useCurrentLocale } from '../hooks/useLocale';
import { useT } from '../hooks/useT';
import { SYNC_PERMISSIONS } from '../permissions';
import { useMappings, usePushEntriesMutation } from '../services/api';
import { useRequestError } from '../services/errors';

/**
 * Made once: the Content Manager deep-compares action descriptions on every render, and a React element
 * made during render drags its whole fiber tree into that comparison.
 */
const ICON = <PaperPlane />;

/** "Push selected" in the list view of a mapped content type. */
export const PushSelectedAction: BulkActionComponent = ({ documents, model }) => {
  const t = useT();
  const { toggleNotification } = useNotification();
  const { notify } = useRequestError();
  const [push] = usePushEntriesMutation();
  const { allowedActions, isLoading } = useRBAC(SYNC_PERMISSIONS);
  const { activeFor } = useMappings(!isLoading && allowedActions.canRead);
  const locale = useCurrentLocale();
  const mapping = activeFor(model);

  if (!allowedActions.canTrigger || !mapping) return null;

  const documentIds = [...new Set(documents.map((d) => d.documentId as string))];

  return {
    label: t('action.pushSelected', 'Push selected'),
    icon: ICON,
    variant: 'tertiary',
    dialog: {
      type: 'dialog',
      title: t('action.pushSelected.title', 'Push to Location Content'),
      // a string, not an element: see ICON
      content: t(
        'action.pushSelected.body',
        'Push the published version of {count, plural, one {# entry} other {# entries}} to the Location Content API now? Drafts are never sent.',
        { count: documentIds.length }
      ),
      confirmLabel: t('action.pushSelected.confirm', 'Push'),
      onConfirm: async () => {
        const res = await push({
          contentType: model,
          documentIds,
          locale: mapping.localized ? locale : undefined,
        });
        if ('error' in res) return notify(res.error);
        toggleNotification({
          type: 'success',
          message: t(
            'action.pushSelected.queued',
            '{count, plural, one {# entry} other {# entries}} queued for push.',
            { count: res.data.queued }
          ),
        });
      },
    },
  };
};
