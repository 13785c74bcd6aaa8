import { Alert } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { PushEnvironment } from '../../../shared/contracts/environment';
import { getTranslation } from '../utils/getTranslation';

/** On every page of the plugin when this environment is not one `pushIn` pushes from. */
export const EnvironmentBanner = ({ environment }: { environment?: PushEnvironment | null }) => {
  const { formatMessage } = useIntl();
  if (!environment || environment.pushing) return null;
  return (
    <Alert
      variant="warning"
      closeLabel=""
      title={formatMessage(
        {
          id: getTranslation('environment.banner.title'),
          defaultMessage: 'Environment "{name}": nothing is pushed',
        },
        { name: environment.name }
      )}
      data-testid="location-content-environment-banner"
    >
      {formatMessage(
        {
          id: getTranslation('environment.banner.body'),
          defaultMessage:
            'Changes are recorded and wait in the queue; pushes go out only in {list} (config pushIn).',
        },
        { list: (environment.pushIn ?? []).join(', ') }
      )}
    </Alert>
  );
};
