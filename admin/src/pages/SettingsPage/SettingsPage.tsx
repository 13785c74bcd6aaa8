import { Page, useRBAC } from '@strapi/strapi/admin';
import { useT } from '../../hooks/useT';
import { PERMISSIONS, SETTINGS_PERMISSIONS } from '../../permissions';
import { useSettings } from '../../services/api';
import { useRequestError } from '../../services/errors';
import { SettingsForm } from './SettingsForm';

/** Reads the settings, then shows the form. */
const SettingsLoader = ({ canUpdate }: { canUpdate: boolean }) => {
  const { message } = useRequestError();
  const { data, error } = useSettings();
  if (error) return <Page.Error content={message(error)} />;
  if (!data) return <Page.Loading />;
  return <SettingsForm data={data} canUpdate={canUpdate} />;
};

export const SettingsPage = () => {
  const t = useT();
  const { allowedActions, isLoading } = useRBAC(SETTINGS_PERMISSIONS);
  if (isLoading) return <Page.Loading />;
  return (
    <Page.Main>
      <Page.Title>{t('settings.pageTitle', 'Location Content settings')}</Page.Title>
      {allowedActions.canRead ? (
        <SettingsLoader canUpdate={Boolean(allowedActions.canUpdate)} />
      ) : (
        <Page.NoPermissions />
      )}
    </Page.Main>
  );
};

export const ProtectedSettingsPage = () => (
  <Page.Protect permissions={PERMISSIONS.readSettings}>
    <SettingsPage />
  </Page.Protect>
);

export default ProtectedSettingsPage;
