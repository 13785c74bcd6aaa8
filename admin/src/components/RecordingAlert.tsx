import { useIntl } from 'react-intl';
import type { SyncStatusReport } from '../../../shared/contracts/sync';
import { getTranslation } from '../utils/getTranslation';
import { Notice } from './Notice';

/** The outbox cannot be written: editors' changes wait in the server's memory. */
export function RecordingAlert({
  failure,
}: {
  failure: NonNullable<SyncStatusReport['recording']>;
}) {
  const { formatMessage, formatDate } = useIntl();
  const since = formatDate(failure.since, { dateStyle: 'medium', timeStyle: 'medium' });
  return (
    <Notice
      variant="danger"
      title={formatMessage({
        id: getTranslation('sync.recording.title'),
        defaultMessage: 'Changes cannot be recorded',
      })}
      testId="recording-alert"
    >
      {formatMessage(
        {
          id: getTranslation('sync.recording.body'),
          defaultMessage: 'Changes cannot be recorded: {reason}, since {since}, {waiting} waiting.',
        },
        { reason: failure.reason, since, waiting: failure.waiting }
      )}
      {failure.dropped
        ? ` ${formatMessage(
            {
              id: getTranslation('sync.recording.dropped'),
              defaultMessage:
                '{dropped} more not kept in memory: run a resync once it works again.',
            },
            { dropped: failure.dropped }
          )}`
        : null}
    </Notice>
  );
}
