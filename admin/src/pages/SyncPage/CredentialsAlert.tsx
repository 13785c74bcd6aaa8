import { Link } from '@strapi/design-system';
import { Link as RouterLink } from 'react-router-dom';
import type { SyncStatusReport } from '../../../../shared/contracts/sync';
import { Notice } from '../../components/Notice';
import { useT } from '../../hooks/useT';

/** Why nothing is pushed when the credentials are missing or cannot be used, with the way to the settings. */
export const CredentialsAlert = ({ report }: { report: SyncStatusReport }) => {
  const t = useT();
  if (!report.credentialsError && report.configured) return null;
  const unreadable = Boolean(report.credentialsError);
  return (
    <Notice
      variant={unreadable ? 'danger' : 'warning'}
      testId={unreadable ? 'secret-unreadable' : 'not-configured'}
      title={
        unreadable
          ? t('secretUnreadable.title', 'The stored client secret cannot be read')
          : t('sync.notConfigured.title', 'Not connected')
      }
      action={
        <Link tag={RouterLink} to="/settings/location-content">
          {t('sync.notConfigured.link', 'Open the settings')}
        </Link>
      }
    >
      {unreadable
        ? t(
            'secretUnreadable.body',
            "None of this app's keys (APP_KEYS and admin.secrets.encryptionKey) opens the saved secret: they were changed without keeping the old one. Enter the client secret again; the changes made meanwhile wait in the queue."
          )
        : t(
            'sync.notConfigured.body',
            'Changes are queued, but nothing is pushed until the API credentials are set.'
          )}
    </Notice>
  );
};
