import * as React from 'react';
import { Box, Flex, Typography } from '@strapi/design-system';
import { WarningCircle } from '@strapi/icons';

type Variant = 'warning' | 'danger';

const COLORS = {
  warning: { background: 'warning100', border: 'warning200', icon: 'warning700' },
  danger: { background: 'danger100', border: 'danger200', icon: 'danger700' },
} as const;

/**
 * A state of the sync that holds until it changes (not connected, a secret that cannot be read,
 * nothing pushed here): it cannot be closed, where the design system's Alert always draws a close
 * button that only hides it until the next poll.
 */
export const Notice = ({
  variant,
  title,
  children,
  action,
  testId,
}: {
  variant: Variant;
  title: React.ReactNode;
  children: React.ReactNode;
  action?: React.ReactNode;
  testId?: string;
}) => {
  const c = COLORS[variant];
  return (
    <Box
      background={c.background}
      borderColor={c.border}
      hasRadius
      shadow="filterShadow"
      padding={5}
      role={variant === 'danger' ? 'alert' : 'status'}
      data-testid={testId}
    >
      <Flex alignItems="flex-start" gap={3}>
        <Box paddingTop={1}>
          <WarningCircle aria-hidden width="2rem" height="2rem" fill={c.icon} />
        </Box>
        <Flex direction="column" alignItems="flex-start" gap={1}>
          <Typography fontWeight="bold" textColor="neutral800" tag="p">
            {title}
          </Typography>
          <Typography textColor="neutral800" tag="p">
            {children}
          </Typography>
          {action ?? null}
        </Flex>
      </Flex>
    </Box>
  );
};
