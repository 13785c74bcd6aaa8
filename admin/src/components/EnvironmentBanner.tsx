import { Box, Flex, Typography } from '@strapi/design-system';
import { WarningCircle } from '@strapi/icons';
import { useIntl } from 'react-intl';
import type { PushEnvironment } from '../../../shared/contracts/environment';
import { getTranslation } from '../utils/getTranslation';

/**
 * On every page of the plugin when this environment is not one `pushIn` pushes from. A safety
 * notice, so it cannot be closed: the design system's Alert always draws a close button.
 */
export const EnvironmentBanner = ({ environment }: { environment?: PushEnvironment | null }) => {
  const { formatMessage } = useIntl();
  if (!environment || environment.pushing) return null;
  return (
    <Box
      background="warning100"
      borderColor="warning200"
      hasRadius
      shadow="filterShadow"
      padding={5}
      role="status"
      data-testid="location-content-environment-banner"
    >
      <Flex alignItems="flex-start" gap={3}>
        <Box color="warning700" paddingTop={1}>
          <WarningCircle aria-hidden width="2rem" height="2rem" fill="warning700" />
        </Box>
        <Flex direction="column" alignItems="flex-start" gap={1}>
          <Typography fontWeight="bold" textColor="neutral800" tag="p">
            {formatMessage(
              {
                id: getTranslation('environment.banner.title'),
                defaultMessage: 'Environment "{name}": nothing is pushed',
              },
              { name: environment.name }
            )}
          </Typography>
          <Typography textColor="neutral800" tag="p">
            {formatMessage(
              {
                id: getTranslation('environment.banner.body'),
                defaultMessage:
                  'Changes are recorded and wait in the queue; pushes go out only in {list} (config pushIn).',
              },
              { list: (environment.pushIn ?? []).join(', ') }
            )}
          </Typography>
        </Flex>
      </Flex>
    </Box>
  );
};
