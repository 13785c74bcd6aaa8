import { Box } from '@strapi/design-system';

/**
 * The bar of a background job (resync, import): red when it stopped, amber when some items
 * failed, blue while it runs, green when it is done. One component so the jobs read alike.
 */
export const ProgressBar = ({
  value,
  label,
  stopped,
  failures,
  running,
  height = '1rem',
  flex,
}: {
  /** 0 to 100 */
  value: number;
  label: string;
  stopped: boolean;
  failures: number;
  running: boolean;
  height?: string;
  flex?: string;
}) => (
  <Box
    flex={flex}
    background="neutral150"
    hasRadius
    height={height}
    overflow="hidden"
    role="progressbar"
    aria-label={label}
    aria-valuemin={0}
    aria-valuemax={100}
    aria-valuenow={value}
  >
    <Box
      background={
        stopped ? 'danger500' : failures ? 'warning500' : running ? 'primary600' : 'success500'
      }
      height="100%"
      style={{ width: `${value}%` }}
    />
  </Box>
);
