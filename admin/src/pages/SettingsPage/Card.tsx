import * as React from 'react';
import { Box, Flex, Typography } from '@strapi/design-system';

/** A section of the settings page, with its title and what it is for. */
export const Card = ({
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
