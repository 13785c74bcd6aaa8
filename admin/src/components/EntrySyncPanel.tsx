import * as React from 'react';
import { Box, Flex, Link, Loader, Typography } from '@strapi/design-system';
import type { PanelComponent } from '@strapi/content-manager/strapi-admin';
import { useRBAC } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { useCurrentLocale } from '../hooks/useLocale';
import { useT } from '../hooks/useT';
import { PERMISSIONS } from '../permissions';
import { useEntryState, useMappings } from '../services/api';
import { useRequestError } from '../services/errors';
import { EnvironmentBanner } from './EnvironmentBanner';
import { PayloadPreviewButton } from './PayloadPreview';
import { PushHistory } from './PushHistory';
import { StatusBadge } from './StatusBadge';

const Row = ({ label, children }: { label: string; children: React.ReactNode }) => (
  <Flex direction="column" alignItems="flex-start" gap={1}>
    <Typography variant="sigma" textColor="neutral600">
      {label}
    </Typography>
    {children}
  </Flex>
);

interface ContentProps {
  contentType: string;
  documentId: string;
  locale?: string;
  /** changes when the editor saves or publishes, so the state is read again */
  version?: string;
}

export const EntrySyncPanelContent = ({
  contentType,
  documentId,
  locale,
  version,
}: ContentProps) => {
  const { formatDate } = useIntl();
  const t = useT();
  const { message } = useRequestError();
  // The panel's own polling (while the push is on the way) is declared in services/api.
  const { data, error } = useEntryState({ contentType, documentId, locale, version });
  const entry = data?.state;
  const environment = data?.environment ?? null;
  const when = (iso: string) => formatDate(iso, { dateStyle: 'medium', timeStyle: 'medium' });

  if (entry === undefined && !error)
    return <Loader small>{t('panel.loading', 'Loading sync status')}</Loader>;

  return (
    <Flex
      direction="column"
      alignItems="stretch"
      gap={3}
      width="100%"
      data-testid="location-content-panel"
    >
      <EnvironmentBanner environment={environment} />
      {error ? (
        <Typography textColor="danger600">{message(error)}</Typography>
      ) : (
        <>
          <Flex gap={2} wrap="wrap">
            <StatusBadge status={entry?.status ?? 'none'} />
            {/* Pending already says the entry is on its way; "queued" is said of a newer change only. */}
            {entry?.queued && entry.status !== 'pending' ? (
              <Typography variant="pi" textColor="neutral600" data-testid="location-content-queued">
                {t('panel.queued', 'A newer change is queued')}
              </Typography>
            ) : null}
          </Flex>
          {!entry ? (
            <Typography variant="pi" textColor="neutral600">
              {t(
                'panel.never',
                'Published versions are pushed automatically. This entry has not been pushed yet.'
              )}
            </Typography>
          ) : (
            <>
              <Row label={t('panel.remoteId', 'Remote id')}>
                <Typography>
                  {entry.remoteId != null ? `${entry.resource} #${entry.remoteId}` : '—'}
                </Typography>
                {entry.viewUrl ? (
                  <Link href={entry.viewUrl} isExternal data-testid="location-content-view-url">
                    {t('panel.viewUrl', 'Open on the map')}
                  </Link>
                ) : null}
              </Row>
              <Row label={t('panel.lastSynced', 'Last pushed')}>
                <Typography>
                  {entry.lastSyncedAt ? when(entry.lastSyncedAt) : t('panel.neverPushed', 'Never')}
                </Typography>
              </Row>
              {entry.lastError ? (
                <Row label={t('panel.lastError', 'Last error')}>
                  <Box background="danger100" padding={2} hasRadius width="100%">
                    <Typography
                      textColor="danger700"
                      data-testid="location-content-error"
                      style={{ wordBreak: 'break-word' }}
                    >
                      {entry.lastError}
                    </Typography>
                  </Box>
                  <Typography variant="pi" textColor="neutral600">
                    {entry.lastErrorAt ? when(entry.lastErrorAt) : null}
                    {entry.attempts > 0
                      ? ` · ${t('panel.attempts', '{count, plural, one {# attempt} other {# attempts}}', { count: entry.attempts })}`
                      : null}
                  </Typography>
                </Row>
              ) : null}
              {entry.mediaUrl ? (
                <Row label={t('panel.media', 'Remote media')}>
                  <Link href={entry.mediaUrl} isExternal style={{ wordBreak: 'break-all' }}>
                    {entry.mediaUrl}
                  </Link>
                </Row>
              ) : null}
            </>
          )}
          <PayloadPreviewButton contentType={contentType} documentId={documentId} locale={locale} />
          <PushHistory
            contentType={contentType}
            documentId={documentId}
            locale={locale}
            version={[
              version,
              entry?.status,
              entry?.queued,
              entry?.lastSyncedAt,
              entry?.lastErrorAt,
              entry?.attempts,
            ].join('|')}
          />
        </>
      )}
    </Flex>
  );
};

/** Side panel of the edit view: shown on mapped content types only, to who may read the sync. */
export const EntrySyncPanel: PanelComponent = ({ model, documentId, document, collectionType }) => {
  const t = useT();
  const { allowedActions, isLoading } = useRBAC(PERMISSIONS.readSync);
  const { activeFor } = useMappings(!isLoading && allowedActions.canRead);
  const locale = useCurrentLocale();
  const mapping = activeFor(model);
  const id =
    collectionType === 'single-types' ? (document?.documentId as string | undefined) : documentId;

  const entryLocale = mapping?.localized
    ? (locale ?? (document?.locale as string | undefined))
    : undefined;
  const version = [document?.updatedAt, document?.publishedAt].join('|');
  // The same element while nothing changed: the Content Manager deep-compares panel descriptions on every
  // render, and a new element would drag its whole fiber tree into the comparison.
  const content = React.useMemo(
    () =>
      id ? (
        <EntrySyncPanelContent
          contentType={model}
          documentId={id}
          locale={entryLocale}
          version={version}
        />
      ) : null,
    [model, id, entryLocale, version]
  );

  if (!allowedActions.canRead || !mapping || !id || id === 'create') return null;

  return {
    title: t('panel.title', 'Location Content'),
    content,
  };
};
