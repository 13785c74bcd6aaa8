import { Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { PushEnvironment, PushTarget } from '../../../shared/contracts/environment';
import { getTranslation } from '../utils/getTranslation';

/** Names the account pushes go to, in every environment, so nobody pushes to the wrong one unknowingly. */
export const PushTargetLine = ({
  target,
  environment,
}: {
  target?: PushTarget;
  environment?: PushEnvironment;
}) => {
  const { formatMessage } = useIntl();
  if (!target || !environment) return null;
  return (
    <Typography variant="pi" textColor="neutral600" data-testid="location-content-target">
      {formatMessage(
        {
          id: getTranslation('environment.target'),
          defaultMessage:
            'Environment {environment} · pushes to {host} · client id ending in {last4}',
        },
        {
          environment: environment.name,
          host:
            target.host ??
            formatMessage({
              id: getTranslation('environment.target.none'),
              defaultMessage: '(not set)',
            }),
          last4: target.clientIdLast4 ?? '—',
        }
      )}
    </Typography>
  );
};
