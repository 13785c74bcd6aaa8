import * as React from 'react';
import { Button, Field, Flex, Grid, TextInput, Typography } from '@strapi/design-system';
import { Check, Lock, Play } from '@strapi/icons';
import { Layouts, useNotification } from '@strapi/strapi/admin';
import type {
  CredentialField,
  GetSettings,
  InputErrorDetails,
  PublicSettings,
} from '../../../../shared/contracts/settings';
import { EnvironmentBanner } from '../../components/EnvironmentBanner';
import { Notice } from '../../components/Notice';
import { TestAlertButton } from '../../components/TestAlertButton';
import { useT } from '../../hooks/useT';
import { useTestConnectionMutation, useUpdateSettingsMutation } from '../../services/api';
import { useRequestError, type RequestError } from '../../services/errors';
import { Card } from './Card';
import { ConnectionResult, type ConnectionTest } from './ConnectionResult';
import { MappingsTable } from './MappingsTable';

type Values = Record<CredentialField, string>;

const valuesOf = (s: PublicSettings): Values => ({
  baseUrl: s.baseUrl ?? '',
  clientId: s.clientId ?? '',
  clientSecret: '',
});

/** What to send: only fields an admin may change; an empty secret keeps the saved one. */
const payloadOf = (values: Values, settings: PublicSettings) => {
  const out: Partial<Values> = {};
  for (const field of ['baseUrl', 'clientId', 'clientSecret'] as const) {
    if (settings.locked[field]) continue;
    if (field === 'clientSecret' && values.clientSecret === '') continue;
    out[field] = values[field];
  }
  return out;
};

/** The credentials form (saved or tested as typed) and the read-only mappings. */
export const SettingsForm = ({
  data: { settings, mappings, environment, alerts },
  canUpdate,
}: {
  data: GetSettings.Response;
  canUpdate: boolean;
}) => {
  const t = useT();
  const { toggleNotification } = useNotification();
  const { message } = useRequestError();
  const [updateSettings, { isLoading: saving }] = useUpdateSettingsMutation();
  const [testConnection, { isLoading: testing }] = useTestConnectionMutation();
  const [values, setValues] = React.useState<Values>(() => valuesOf(settings));
  const [errors, setErrors] = React.useState<Partial<Record<CredentialField, string>>>({});
  const [test, setTest] = React.useState<ConnectionTest | null>(null);

  const dirty =
    values.baseUrl !== (settings.baseUrl ?? '') ||
    values.clientId !== (settings.clientId ?? '') ||
    values.clientSecret !== '';

  const onChange = (field: CredentialField) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    setErrors((x) => ({ ...x, [field]: undefined }));
  };

  /** A 400 about one field marks that field too. */
  const failed = (error: RequestError) => {
    const field =
      'details' in error ? (error.details as InputErrorDetails | undefined)?.field : undefined;
    if (field) setErrors({ [field]: message(error) });
    return message(error);
  };

  const onSave = async (e?: React.FormEvent) => {
    e?.preventDefault();
    const res = await updateSettings(payloadOf(values, settings));
    if ('error' in res) {
      toggleNotification({ type: 'danger', message: failed(res.error) });
      return;
    }
    setValues(valuesOf(res.data.settings));
    setErrors({});
    toggleNotification({
      type: 'success',
      message: t('settings.saved', 'Settings saved. The next push uses them.'),
    });
  };

  const onTest = async () => {
    setTest(null);
    const res = await testConnection(payloadOf(values, settings));
    setTest('error' in res ? { ok: false, message: failed(res.error) } : res.data.result);
  };

  const lockedHint = (field: CredentialField) => settings.locked[field];
  const secretHint = () => {
    if (settings.locked.clientSecret) return settings.locked.clientSecret;
    if (settings.secretUnreadable)
      return t(
        'settings.secret.hint.unreadable',
        "A secret is saved, but this app's keys cannot read it: enter it again."
      );
    if (!settings.secretSet)
      return t(
        'settings.secret.hint.none',
        'Not set yet. It is stored encrypted and never shown again.'
      );
    if (!canUpdate) {
      return settings.secretLast4
        ? t('settings.secret.hint.readOnlyLast4', 'A secret ending in {last4} is saved.', {
            last4: settings.secretLast4,
          })
        : t('settings.secret.hint.readOnly', 'A secret is saved.');
    }
    return settings.secretLast4
      ? t(
          'settings.secret.hint.setLast4',
          'A secret ending in {last4} is saved. Leave empty to keep it.',
          { last4: settings.secretLast4 }
        )
      : t('settings.secret.hint.set', 'A secret is saved. Leave empty to keep it.');
  };
  const disabled = (field: CredentialField) => !canUpdate || Boolean(settings.locked[field]);

  const field = (
    name: CredentialField,
    label: string,
    props: { type?: string; placeholder?: string; hint?: React.ReactNode; autoComplete?: string }
  ) => (
    <Grid.Item col={name === 'baseUrl' ? 12 : 6} s={12} key={name}>
      <Field.Root
        name={name}
        error={errors[name]}
        hint={lockedHint(name) ?? props.hint}
        required={!settings.locked[name] && name !== 'clientSecret'}
        width="100%"
      >
        <Field.Label>{label}</Field.Label>
        <TextInput
          type={props.type ?? 'text'}
          value={values[name]}
          onChange={onChange(name)}
          disabled={disabled(name)}
          placeholder={props.placeholder}
          autoComplete={props.autoComplete ?? 'off'}
          endAction={
            settings.locked[name] ? (
              <Lock aria-label={t('settings.locked', 'Locked by configuration')} />
            ) : undefined
          }
        />
        <Field.Hint />
        <Field.Error />
      </Field.Root>
    </Grid.Item>
  );

  return (
    <form onSubmit={onSave}>
      <Layouts.Header
        title={t('settings.title', 'Location Content')}
        subtitle={t(
          'settings.subtitle',
          'Connection to the Location Content API, and how content types are mapped to it'
        )}
        primaryAction={
          canUpdate ? (
            <Button
              type="submit"
              startIcon={<Check />}
              loading={saving}
              disabled={!dirty || saving}
            >
              {t('settings.save', 'Save')}
            </Button>
          ) : null
        }
      />
      <Layouts.Content>
        <Flex direction="column" alignItems="stretch" gap={6}>
          <EnvironmentBanner environment={environment} />
          {settings.secretUnreadable ? (
            <Notice
              variant="danger"
              testId="secret-unreadable"
              title={t('secretUnreadable.title', 'The stored client secret cannot be read')}
            >
              {t(
                'secretUnreadable.body',
                "None of this app's keys (APP_KEYS and admin.secrets.encryptionKey) opens the saved secret: they were changed without keeping the old one. Enter the client secret again; the changes made meanwhile wait in the queue."
              )}
            </Notice>
          ) : !settings.configured ? (
            <Notice
              variant="warning"
              title={t('settings.notConfigured.title', 'Not connected yet')}
            >
              {t(
                'settings.notConfigured.body',
                'Nothing is pushed until the base URL, client id and client secret are set.'
              )}
            </Notice>
          ) : null}
          <Card
            title={t('settings.connection.title', 'API connection')}
            subtitle={t(
              'settings.connection.subtitle',
              'OAuth2 client credentials of your Location Content account. The secret is write-only.'
            )}
          >
            <Grid.Root gap={5}>
              {field('baseUrl', t('settings.baseUrl', 'Base URL'), {
                placeholder: 'https://api.getwemap.com',
                hint: t('settings.baseUrl.hint', 'The API root, without /v3.0.'),
              })}
              {field('clientId', t('settings.clientId', 'Client id'), {})}
              {field('clientSecret', t('settings.clientSecret', 'Client secret'), {
                type: 'password',
                autoComplete: 'new-password',
                placeholder:
                  settings.secretSet && !settings.locked.clientSecret
                    ? `••••••••${settings.secretLast4 ?? ''}`
                    : undefined,
                hint: secretHint(),
              })}
            </Grid.Root>
            {canUpdate ? (
              <Flex gap={6} alignItems="flex-start" wrap="wrap">
                {/* each button with its own hint beneath it */}
                <Flex direction="column" alignItems="flex-start" gap={1}>
                  <Button
                    variant="secondary"
                    startIcon={<Play />}
                    onClick={onTest}
                    loading={testing}
                    disabled={testing}
                    type="button"
                    data-testid="test-connection"
                  >
                    {t('settings.test', 'Test connection')}
                  </Button>
                  <Typography
                    variant="pi"
                    textColor="neutral600"
                    data-testid="test-connection-hint"
                  >
                    {dirty
                      ? t('settings.test.unsaved', 'Tests the values above, before saving them.')
                      : t(
                          'settings.test.saved',
                          'Asks for a token and lists the first page of pinpoints.'
                        )}
                  </Typography>
                </Flex>
                <TestAlertButton alerts={alerts} />
              </Flex>
            ) : null}
            {test ? <ConnectionResult test={test} onClose={() => setTest(null)} /> : null}
          </Card>
          <Card
            testId="mappings-card"
            title={t('settings.mappings.title', 'Mappings')}
            subtitle={t(
              'settings.mappings.subtitle',
              'Read-only: set in config/plugins under "location-content". A mapping with a problem is disabled until it is fixed.'
            )}
          >
            <MappingsTable mappings={mappings} />
          </Card>
        </Flex>
      </Layouts.Content>
    </form>
  );
};
