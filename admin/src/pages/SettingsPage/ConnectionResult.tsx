import { Alert, Box, Typography } from '@strapi/design-system';
import type { ConnectionTestResult } from '../../../../shared/contracts/settings';
import { useT } from '../../hooks/useT';

/** What "Test connection" shows: the server's verdict, or the request's own failure. */
export type ConnectionTest =
  ConnectionTestResult | { ok: false; message: string; detail?: undefined };

export const ConnectionResult = ({
  test,
  onClose,
}: {
  test: ConnectionTest;
  onClose: () => void;
}) => {
  const t = useT();
  return (
    <Box data-testid="connection-result">
      <Alert
        variant={test.ok ? 'success' : 'danger'}
        closeLabel={t('settings.test.close', 'Close')}
        onClose={onClose}
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
  );
};
