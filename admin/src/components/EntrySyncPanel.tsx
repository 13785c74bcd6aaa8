import * as React from 'react';
import { Box, Flex, Link, Loader, Typography } from '@strapi/design-system';
import type { PanelComponent } from '@strapi/content-manager/strapi-admin';
import { useFetchClient, useRBAC } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { useMappings } from '../hooks/useMappings';
import { useCurrentLocale } from '../hooks/useLocale';
import { onPush } from '../hooks/pushEvents';
import { PERMISSIONS } from '../permissions';
import type { PushEnvironment } from '../../../shared/contracts/environment';
import type { EntryState } from '../../../shared/contracts/sync';
import { API, errorMessage } from '../utils/api';
import { getTranslation } from '../utils/getTranslation';
import { EnvironmentBanner } from './EnvironmentBanner';
import { PayloadPreviewButton } from './PayloadPreview';
import { PushHistory } from './PushHistory';
import { StatusBadge } from './StatusBadge';

/** While a push is queued or running, the panel asks again this often; slower while it waits on another entry. */
const POLL_MS = 1500;
const WAITING_POLL_MS = 5000;

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
  const { formatMessage, formatDate } = useIntl();
  const { get } = useFetchClient();
  const [entry, setEntry] = React.useState<EntryState | null | undefined>(undefined);
  const [environment, setEnvironment] = React.useState<PushEnvironment | null>(null);
  const [error, setError] = React.useState<string | null>(null);

  const refresh = React.useCallback(async () => {
    try {
      const { data } = await get<{ state: EntryState | null; environment: PushEnvironment }>(
        API.entry(contentType, documentId),
        { params: locale ? { locale } : undefined }
      );
      setEntry(data.state);
      setEnvironment(data.environment);
      setError(null);
    } catch (err) {
      if ((err as any)?.name === 'AbortError') return;
      setError(errorMessage(err));
    }
  }, [get, contentType, documentId, locale]);

  React.useEffect(() => {
    refresh();
  }, [refresh, version]);

  React.useEffect(
    () =>
      onPush(
        (pushed) =>
          pushed.contentType === contentType && pushed.documentIds.includes(documentId) && refresh()
      ),
    [refresh, contentType, documentId]
  );

  const every = entry?.queued ? POLL_MS : entry?.status === 'pending' ? WAITING_POLL_MS : null;
  React.useEffect(() => {
    if (!every) return;
    const timer = setInterval(refresh, every);
    return () => clearInterval(timer);
  }, [every, refresh]);

  const t = (id: string, defaultMessage: string, values?: Record<string, any>) =>
    formatMessage({ id: getTranslation(id), defaultMessage }, values);
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
        <Typography textColor="danger600">{error}</Typography>
      ) : (
        <>
          <Flex gap={2} wrap="wrap">
            <StatusBadge status={entry?.status ?? 'none'} />
            {entry?.queued ? (
              <Typography variant="pi" textColor="neutral600">
                {t('panel.queued', 'In the queue')}
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
  const { formatMessage } = useIntl();
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
    title: formatMessage({ id: getTranslation('panel.title'), defaultMessage: 'Location Content' }),
    content,
  };
};
