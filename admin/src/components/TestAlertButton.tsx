import * as React from 'react';
import { Button } from '@strapi/design-system';
import { Bell } from '@strapi/icons';
import { useFetchClient, useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import type { AlertsView, SendTestAlert } from '../../../shared/contracts/alerts';
import { API, errorMessage } from '../utils/api';
import { getTranslation } from '../utils/getTranslation';

/** Settings page: sends a test alert to the configured channels and says what each answered. */
export const TestAlertButton = ({ alerts }: { alerts: AlertsView }) => {
  const { formatMessage } = useIntl();
  const { post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const [busy, setBusy] = React.useState(false);
  const t = (id: string, defaultMessage: string, values?: Record<string, any>) =>
    formatMessage({ id: getTranslation(id), defaultMessage }, values);
  if (!alerts || (!alerts.email && !alerts.webhook)) return null;

  const send = async () => {
    setBusy(true);
    try {
      const { data } = await post<SendTestAlert.Response>(API.testAlert, {});
      const errors = [
        data.result.email?.error && `e-mail: ${data.result.email.error}`,
        data.result.webhook?.error && `webhook: ${data.result.webhook.error}`,
      ].filter(Boolean);
      toggleNotification(
        errors.length
          ? {
              type: 'danger',
              message: t('alerts.test.failed', 'The test alert was not delivered: {errors}', {
                errors: errors.join('; '),
              }),
            }
          : { type: 'success', message: t('alerts.test.sent', 'Test alert sent.') }
      );
    } catch (err) {
      toggleNotification({ type: 'danger', message: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button
      variant="tertiary"
      startIcon={<Bell />}
      onClick={send}
      loading={busy}
      disabled={busy}
      type="button"
      data-testid="test-alert"
    >
      {t('alerts.test', 'Send test alert')}
    </Button>
  );
};
