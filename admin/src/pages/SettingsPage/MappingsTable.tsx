import {
  Badge,
  Box,
  Flex,
  Table,
  Tbody,
  Td,
  Th,
  Thead,
  Tr,
  Typography,
} from '@strapi/design-system';
import type { MappingView } from '../../../../shared/contracts/mappings';
import { useT } from '../../hooks/useT';

/** A field's source as the config wrote it: a path, or a path with options. */
const fieldPath = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    const extra = Object.entries(v)
      .filter(([k]) => k !== 'path')
      .map(([k, x]) => `${k}: ${typeof x === 'string' ? x : JSON.stringify(x)}`);
    return `${v.path ?? ''}${extra.length ? ` (${extra.join(', ')})` : ''}`;
  }
  return JSON.stringify(value);
};

/** The mappings of config/plugins, read-only, with their problems and warnings. */
export const MappingsTable = ({ mappings }: { mappings: MappingView[] }) => {
  const t = useT();
  if (!mappings.length) {
    return (
      <Typography textColor="neutral600">
        {t(
          'settings.mappings.none',
          'No mapping is configured: add one under "mappings" in config/plugins.'
        )}
      </Typography>
    );
  }
  return (
    <Table colCount={4} rowCount={mappings.length + 1}>
      <Thead>
        <Tr>
          <Th>
            <Typography variant="sigma">
              {t('settings.mappings.contentType', 'Content type')}
            </Typography>
          </Th>
          <Th>
            <Typography variant="sigma">{t('settings.mappings.resource', 'Sent as')}</Typography>
          </Th>
          <Th>
            <Typography variant="sigma">
              {t('settings.mappings.fields', 'Fields (remote ← Strapi)')}
            </Typography>
          </Th>
          <Th>
            <Typography variant="sigma">{t('settings.mappings.state', 'State')}</Typography>
          </Th>
        </Tr>
      </Thead>
      <Tbody>
        {mappings.map((m) => (
          <Tr
            key={m.index}
            style={m.problems.length ? { background: 'rgba(238, 94, 82, 0.06)' } : undefined}
          >
            <Td style={{ verticalAlign: 'top' }}>
              <Flex direction="column" alignItems="flex-start" paddingTop={2} paddingBottom={2}>
                <Typography fontWeight="bold">{m.displayName}</Typography>
                <Typography variant="pi" textColor="neutral600">
                  {m.contentType}
                </Typography>
              </Flex>
            </Td>
            <Td style={{ verticalAlign: 'top' }}>
              <Box paddingTop={2}>
                <Badge>{m.resource}</Badge>
              </Box>
            </Td>
            <Td style={{ verticalAlign: 'top', whiteSpace: 'normal' }}>
              <Flex
                direction="column"
                alignItems="flex-start"
                gap={1}
                paddingTop={2}
                paddingBottom={2}
              >
                {Object.entries(m.fields).map(([remote, source]) => (
                  <Typography key={remote} variant="pi">
                    <code>{remote}</code> ← <code>{fieldPath(source)}</code>
                  </Typography>
                ))}
                {m.hasTransform ? (
                  <Typography variant="pi" textColor="neutral600">
                    {t('settings.mappings.transform', '+ a transform function')}
                  </Typography>
                ) : null}
                {m.problems.map((p) => (
                  <Typography
                    key={p}
                    variant="pi"
                    textColor="danger600"
                    fontWeight="bold"
                    data-testid="mapping-problem"
                  >
                    {p}
                  </Typography>
                ))}
                {(m.warnings ?? []).map((w) => (
                  <Typography
                    key={w}
                    variant="pi"
                    textColor="warning600"
                    fontWeight="bold"
                    data-testid="mapping-warning"
                  >
                    {w}
                  </Typography>
                ))}
              </Flex>
            </Td>
            <Td style={{ verticalAlign: 'top' }}>
              <Box paddingTop={2}>
                {m.active ? (
                  <Badge variant="success">{t('settings.mappings.active', 'Active')}</Badge>
                ) : (
                  <Badge variant="danger">
                    {t('settings.mappings.disabled', 'Disabled: fix config')}
                  </Badge>
                )}
              </Box>
            </Td>
          </Tr>
        ))}
      </Tbody>
    </Table>
  );
};
