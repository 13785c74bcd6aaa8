import * as React from 'react';
import { Box, Flex, TextButton, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { PushAttempt } from '../../../shared/contracts/history';
import { useT } from '../hooks/useT';
import { useEntryHistory } from '../services/api';
import { useRequestError } from '../services/errors';

const TONE: Record<PushAttempt['outcome'], string> = {
  synced: 'success600',
  removed: 'neutral600',
  unchanged: 'neutral600',
  waiting: 'warning600',
  failed: 'danger600',
};

/** The newest attempts shown at first: the panel sits below the editor's own actions. */
export const HISTORY_SHOWN = 3;

interface Props {
  contentType: string;
  documentId: string;
  locale?: string;
  /** changes when the entry's state changes, so the history is read again */
  version: string;
}

/** The last pushes of the entry, newest first: when, what, the answer and how long it took. */
export const PushHistory = ({ contentType, documentId, locale, version }: Props) => {
  const { formatDate } = useIntl();
  const t = useT();
  const { message } = useRequestError();
  const { data, error } = useEntryHistory({ contentType, documentId, locale, version });
  const attempts = data?.attempts;
  const [all, setAll] = React.useState(false);

  if (error) return <Typography textColor="danger600">{message(error)}</Typography>;
  if (!attempts?.length) return null;

  const operation = (a: PushAttempt) =>
    ({
      create: t('history.op.create', 'Create'),
      update: t('history.op.update', 'Update'),
      delete: t('history.op.delete', 'Delete'),
      push: t('history.op.push', 'Push'),
    })[a.operation];
  const outcome = (a: PushAttempt) =>
    ({
      synced: t('history.outcome.synced', 'done'),
      removed: t('history.outcome.removed', 'removed'),
      unchanged: t('history.outcome.unchanged', 'unchanged'),
      waiting: t('history.outcome.waiting', 'waiting'),
      failed: a.httpStatus
        ? t('history.outcome.http', 'HTTP {status}', { status: a.httpStatus })
        : t('history.outcome.failed', 'failed'),
    })[a.outcome];

  return (
    <Flex direction="column" alignItems="stretch" gap={1} data-testid="location-content-history">
      <Typography variant="sigma" textColor="neutral600">
        {t('history.title', 'Push history')}
      </Typography>
      {(all ? attempts : attempts.slice(0, HISTORY_SHOWN)).map((a, i) => (
        <Box
          key={i}
          paddingTop={1}
          paddingBottom={1}
          borderColor="neutral150"
          style={{ borderBottomWidth: 1, borderBottomStyle: 'solid' }}
        >
          <Flex gap={2} wrap="wrap">
            <Typography variant="pi" fontWeight="bold">
              {operation(a)}
            </Typography>
            <Typography variant="pi" textColor={TONE[a.outcome]}>
              {outcome(a)}
            </Typography>
            <Typography variant="pi" textColor="neutral600">
              {formatDate(a.at, { dateStyle: 'short', timeStyle: 'medium' })} ·{' '}
              {t('history.duration', '{ms} ms', { ms: a.durationMs })}
            </Typography>
          </Flex>
          {a.message ? (
            <Typography variant="pi" textColor="neutral700" style={{ wordBreak: 'break-word' }}>
              {a.message}
            </Typography>
          ) : null}
        </Box>
      ))}
      {attempts.length > HISTORY_SHOWN ? (
        <TextButton
          onClick={() => setAll((v) => !v)}
          aria-expanded={all}
          data-testid="location-content-history-more"
        >
          {all
            ? t('history.fewer', 'Show the last {n} only', { n: HISTORY_SHOWN })
            : t('history.more', 'Show all {count} attempts', { count: attempts.length })}
        </TextButton>
      ) : null}
    </Flex>
  );
};
