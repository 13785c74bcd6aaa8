import * as React from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
  Field,
  Flex,
  Grid,
  Table,
  Tbody,
  Td,
  Th,
  Thead,
  Tr,
  TextInput,
  Typography,
} from '@strapi/design-system';
import { Check, Lock, Play } from '@strapi/icons';
import { Layouts, Page, useFetchClient, useNotification, useRBAC } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import type { AlertsView } from '../../../shared/contracts/alerts';
import { EnvironmentBanner } from '../components/EnvironmentBanner';
import { TestAlertButton } from '../components/TestAlertButton';
import { PERMISSIONS, SETTINGS_PERMISSIONS } from '../permissions';
import type { MappingView } from '../../../shared/contracts/mappings';
import type {
  ConnectionTestResult,
  CredentialField,
  PublicSettings,
} from '../../../shared/contracts/settings';
import type { PushEnvironment } from '../../../shared/contracts/environment';
import { API, errorField, errorMessage } from '../utils/api';
import { getTranslation } from '../utils/getTranslation';

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

const fieldPath = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    const extra = Object.entries(v)
      .filter(([k]) => k !== 'path')
      .map(([k, x]) => `${k}: ${typeof x === 'string' ? x : JSON.stringify(x)}`);
    return `${v.path ?? ''}${extra.length ? ` (${extra.join(', ')})` : ''}`;
  }
  return JSON.stringify(value);
};

const MappingsTable = ({ mappings }: { mappings: MappingView[] }) => {
  const { formatMessage } = useIntl();
  const t = (id: string, defaultMessage: string) =>
    formatMessage({ id: getTranslation(id), defaultMessage });
  if (!mappings.length) {
    return (
      <Typography textColor="neutral600">
        {t(
          'settings.mappings.none',
          'No mapping is configured: add one under "mappings" in config/plugins.'
        )}
      </Typography>
    );
  }
  return (
    <Table colCount={4} rowCount={mappings.length + 1}>
      <Thead>
        <Tr>
          <Th>
            <Typography variant="sigma">
              {t('settings.mappings.contentType', 'Content type')}
            </Typography>
          </Th>
          <Th>
            <Typography variant="sigma">{t('settings.mappings.resource', 'Sent as')}</Typography>
          </Th>
          <Th>
            <Typography variant="sigma">
              {t('settings.mappings.fields', 'Fields (remote ← Strapi)')}
            </Typography>
          </Th>
          <Th>
            <Typography variant="sigma">{t('settings.mappings.state', 'State')}</Typography>
          </Th>
        </Tr>
      </Thead>
      <Tbody>
        {mappings.map((m) => (
          <Tr
            key={m.index}
            style={m.problems.length ? { background: 'rgba(238, 94, 82, 0.06)' } : undefined}
          >
            <Td style={{ verticalAlign: 'top' }}>
              <Flex direction="column" alignItems="flex-start" paddingTop={2} paddingBottom={2}>
                <Typography fontWeight="bold">{m.displayName}</Typography>
                <Typography variant="pi" textColor="neutral600">
                  {m.contentType}
                </Typography>
              </Flex>
            </Td>
            <Td style={{ verticalAlign: 'top' }}>
              <Box paddingTop={2}>
                <Badge>{m.resource}</Badge>
              </Box>
            </Td>
            <Td style={{ verticalAlign: 'top', whiteSpace: 'normal' }}>
              <Flex
                direction="column"
                alignItems="flex-start"
                gap={1}
                paddingTop={2}
                paddingBottom={2}
              >
                {Object.entries(m.fields).map(([remote, source]) => (
                  <Typography key={remote} variant="pi">
                    <code>{remote}</code> ← <code>{fieldPath(source)}</code>
                  </Typography>
                ))}
                {m.hasTransform ? (
                  <Typography variant="pi" textColor="neutral600">
                    {t('settings.mappings.transform', '+ a transform function')}
                  </Typography>
                ) : null}
                {m.problems.map((p) => (
                  <Typography
                    key={p}
                    variant="pi"
                    textColor="danger600"
                    fontWeight="bold"
                    data-testid="mapping-problem"
                  >
                    {p}
                  </Typography>
                ))}
                {(m.warnings ?? []).map((w) => (
                  <Typography
                    key={w}
                    variant="pi"
                    textColor="warning600"
                    fontWeight="bold"
                    data-testid="mapping-warning"
                  >
                    {w}
                  </Typography>
                ))}
              </Flex>
            </Td>
            <Td style={{ verticalAlign: 'top' }}>
              <Box paddingTop={2}>
                {m.active ? (
                  <Badge variant="success">{t('settings.mappings.active', 'Active')}</Badge>
                ) : (
                  <Badge variant="danger">
                    {t('settings.mappings.disabled', 'Disabled: fix config')}
                  </Badge>
                )}
              </Box>
            </Td>
          </Tr>
        ))}
      </Tbody>
    </Table>
  );
};

const Card = ({
  title,
  subtitle,
  children,
  testId,
}: {
  title: string;
  subtitle?: string;
  children: React.ReactNode;
  testId?: string;
}) => (
  <Box
    background="neutral0"
    hasRadius
    shadow="filterShadow"
    paddingTop={6}
    paddingBottom={6}
    paddingLeft={7}
    paddingRight={7}
    data-testid={testId}
  >
    <Flex direction="column" alignItems="stretch" gap={4}>
      <Flex direction="column" alignItems="flex-start" gap={1}>
        <Typography variant="delta" tag="h2">
          {title}
        </Typography>
        {subtitle ? <Typography textColor="neutral600">{subtitle}</Typography> : null}
      </Flex>
      {children}
    </Flex>
  </Box>
);

const SettingsForm = ({ canUpdate }: { canUpdate: boolean }) => {
  const { formatMessage } = useIntl();
  const { get, put, post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const t = (id: string, defaultMessage: string, values?: Record<string, any>) =>
    formatMessage({ id: getTranslation(id), defaultMessage }, values);

  const [settings, setSettings] = React.useState<PublicSettings | null>(null);
  const [mappings, setMappings] = React.useState<MappingView[]>([]);
  const [environment, setEnvironment] = React.useState<PushEnvironment | null>(null);
  const [alerts, setAlerts] = React.useState<AlertsView>(null);
  const [loadError, setLoadError] = React.useState<string | null>(null);
  const [values, setValues] = React.useState<Values>({
    baseUrl: '',
    clientId: '',
    clientSecret: '',
  });
  const [errors, setErrors] = React.useState<Partial<Record<CredentialField, string>>>({});
  const [saving, setSaving] = React.useState(false);
  const [testing, setTesting] = React.useState(false);
  const [test, setTest] = React.useState<
    ConnectionTestResult | { ok: false; message: string; detail?: undefined } | null
  >(null);

  React.useEffect(() => {
    get<{
      settings: PublicSettings;
      mappings: MappingView[];
      environment: PushEnvironment;
      alerts: AlertsView;
    }>(API.settings).then(
      ({ data }) => {
        setSettings(data.settings);
        setMappings(data.mappings);
        setEnvironment(data.environment);
        setAlerts(data.alerts);
        setValues(valuesOf(data.settings));
      },
      (err) => setLoadError(errorMessage(err))
    );
  }, [get]);

  if (loadError) return <Page.Error content={loadError} />;
  if (!settings) return <Page.Loading />;

  const dirty =
    values.baseUrl !== (settings.baseUrl ?? '') ||
    values.clientId !== (settings.clientId ?? '') ||
    values.clientSecret !== '';

  const onChange = (field: CredentialField) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    setErrors((x) => ({ ...x, [field]: undefined }));
  };

  const failed = (err: unknown) => {
    const field = errorField(err) as CredentialField | undefined;
    if (field) setErrors({ [field]: errorMessage(err) });
    return errorMessage(err);
  };

  const onSave = async (e?: React.FormEvent) => {
    e?.preventDefault();
    setSaving(true);
    try {
      const { data } = await put<{ settings: PublicSettings }>(
        API.settings,
        payloadOf(values, settings)
      );
      setSettings(data.settings);
      setValues(valuesOf(data.settings));
      setErrors({});
      toggleNotification({
        type: 'success',
        message: t('settings.saved', 'Settings saved. The next push uses them.'),
      });
    } catch (err) {
      toggleNotification({ type: 'danger', message: failed(err) });
    } finally {
      setSaving(false);
    }
  };

  const onTest = async () => {
    setTesting(true);
    setTest(null);
    try {
      const { data } = await post<{ result: ConnectionTestResult }>(
        API.testConnection,
        payloadOf(values, settings)
      );
      setTest(data.result);
    } catch (err) {
      setTest({ ok: false, message: failed(err) });
    } finally {
      setTesting(false);
    }
  };

  const lockedHint = (field: CredentialField) => settings.locked[field];
  const secretHint = () => {
    if (settings.locked.clientSecret) return settings.locked.clientSecret;
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
          {!settings.configured ? (
            <Alert
              variant="warning"
              closeLabel=""
              title={t('settings.notConfigured.title', 'Not connected yet')}
            >
              {t(
                'settings.notConfigured.body',
                'Nothing is pushed until the base URL, client id and client secret are set.'
              )}
            </Alert>
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
              <Flex gap={3} alignItems="center">
                <Button
                  variant="secondary"
                  startIcon={<Play />}
                  onClick={onTest}
                  loading={testing}
                  disabled={testing}
                  type="button"
                >
                  {t('settings.test', 'Test connection')}
                </Button>
                <TestAlertButton alerts={alerts} />
                <Typography variant="pi" textColor="neutral600">
                  {dirty
                    ? t('settings.test.unsaved', 'Tests the values above, before saving them.')
                    : t(
                        'settings.test.saved',
                        'Asks for a token and lists the first page of pinpoints.'
                      )}
                </Typography>
              </Flex>
            ) : null}
            {test ? (
              <Box data-testid="connection-result">
                <Alert
                  variant={test.ok ? 'success' : 'danger'}
                  closeLabel={t('settings.test.close', 'Close')}
                  onClose={() => setTest(null)}
                  title={
                    test.ok
                      ? t('settings.test.ok', 'Connected')
                      : t('settings.test.failed', 'Connection failed')
                  }
                >
                  {test.message}
                  {test.detail ? (
                    <Box paddingTop={1}>
                      <Typography variant="pi" textColor="neutral600">
                        {test.detail}
                      </Typography>
                    </Box>
                  ) : null}
                  {test.ok && 'sample' in test && test.sample?.length ? (
                    <Box paddingTop={1}>
                      <Typography variant="pi" textColor="neutral600">
                        {t('settings.test.sample', 'First: {names}', {
                          names: test.sample.map((p) => p.name).join(', '),
                        })}
                      </Typography>
                    </Box>
                  ) : null}
                </Alert>
              </Box>
            ) : null}
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

export const SettingsPage = () => {
  const { formatMessage } = useIntl();
  const { allowedActions, isLoading } = useRBAC(SETTINGS_PERMISSIONS);
  if (isLoading) return <Page.Loading />;
  return (
    <Page.Main>
      <Page.Title>
        {formatMessage({
          id: getTranslation('settings.pageTitle'),
          defaultMessage: 'Location Content settings',
        })}
      </Page.Title>
      {allowedActions.canRead ? (
        <SettingsForm canUpdate={Boolean(allowedActions.canUpdate)} />
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
