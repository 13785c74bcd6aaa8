import { useIntl } from 'react-intl';
import type { PushEnvironment } from '../../../shared/contracts/environment';
import { getTranslation } from '../utils/getTranslation';
import { Notice } from './Notice';

/**
 * On every page of the plugin when this environment is not one `pushIn` pushes from: a safety
 * notice, which cannot be closed.
 */
export const EnvironmentBanner = ({ environment }: { environment?: PushEnvironment | null }) => {
  const { formatMessage } = useIntl();
  if (!environment || environment.pushing) return null;
  return (
    <Notice
      variant="warning"
      testId="location-content-environment-banner"
      title={formatMessage(
        {
          id: getTranslation('environment.banner.title'),
          defaultMessage: 'Environment "{name}": nothing is pushed',
        },
        { name: environment.name }
      )}
    >
      {formatMessage(
        {
          id: getTranslation('environment.banner.body'),
          defaultMessage:
            'Changes are recorded and wait in the queue; pushes go out only in {list} (config pushIn).',
        },
        { list: (environment.pushIn ?? []).join(', ') }
      )}
    </Notice>
  );
};
