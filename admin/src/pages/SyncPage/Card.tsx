import * as React from 'react';
import { Box, Flex, Typography } from '@strapi/design-system';

/** A white card of the dashboard. */
export const Card = ({ children, ...props }: React.ComponentProps<typeof Box>) => (
  <Box background="neutral0" hasRadius shadow="filterShadow" padding={6} {...props}>
    {children}
  </Box>
);

/** One number of the dashboard, with its label. */
export const Stat = ({
  label,
  value,
  tone,
  testId,
}: {
  label: string;
  value: React.ReactNode;
  tone?: string;
  testId?: string;
}) => (
  <Card padding={4} height="100%" width="100%">
    <Flex direction="column" alignItems="flex-start" gap={1}>
      <Typography variant="sigma" textColor="neutral600">
        {label}
      </Typography>
      <Typography variant="beta" textColor={tone ?? 'neutral800'} data-testid={testId}>
        {value}
      </Typography>
    </Flex>
  </Card>
);
