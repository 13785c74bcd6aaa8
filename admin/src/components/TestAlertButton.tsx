import { Button, Flex, Typography } from '@strapi/design-system';
import { Bell } from '@strapi/icons';
import { useNotification } from '@strapi/strapi/admin';
import type { AlertsView } from '../../../shared/contracts/alerts';
import { useT } from '../hooks/useT';
import { useSendTestAlertMutation } from '../services/api';
import { useRequestError } from '../services/errors';

/** Settings page: sends a test alert to the configured channels and says what each answered. */
export const TestAlertButton = ({ alerts }: { alerts: AlertsView }) => {
  const t = useT();
  const { toggleNotification } = useNotification();
  const { notify } = useRequestError();
  const [sendTestAlert, { isLoading: busy }] = useSendTestAlertMutation();
  if (!alerts || (!alerts.email && !alerts.webhook)) return null;

  const send = async () => {
    const res = await sendTestAlert();
    if ('error' in res) return notify(res.error);
    const { result } = res.data;
    const errors = [
      result.email?.error && `e-mail: ${result.email.error}`,
      result.webhook?.error && `webhook: ${result.webhook.error}`,
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
  };

  return (
    <Flex direction="column" alignItems="flex-start" gap={1}>
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
      <Typography variant="pi" textColor="neutral600" data-testid="test-alert-hint">
        {t('alerts.test.hint', 'Sends one alert to each configured channel (e-mail, webhook).')}
      </Typography>
    </Flex>
  );
};
