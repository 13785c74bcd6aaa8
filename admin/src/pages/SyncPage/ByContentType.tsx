import { Badge, Flex, Table, Tbody, Td, Th, Thead, Tr, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { STATUSES, type SyncStatusReport } from '../../../../shared/contracts/sync';
import { useStatusLabel } from '../../components/StatusBadge';
import { useContentTypes } from '../../hooks/useContentTypes';
import { useT } from '../../hooks/useT';
import { Card } from './Card';

/** The status counts of each mapped content type. */
export const ByContentType = ({ report }: { report: SyncStatusReport }) => {
  const t = useT();
  const { formatNumber } = useIntl();
  const statusLabel = useStatusLabel();
  const { names } = useContentTypes();
  return (
    <Card>
      <Flex direction="column" alignItems="stretch" gap={4}>
        <Typography variant="delta" tag="h2">
          {t('sync.byType', 'By content type')}
        </Typography>
        <Table colCount={2 + STATUSES.length} rowCount={report.byContentType.length + 1}>
          <Thead>
            <Tr>
              <Th>
                <Typography variant="sigma">
                  {t('sync.byType.contentType', 'Content type')}
                </Typography>
              </Th>
              <Th>
                <Typography variant="sigma">{t('sync.byType.resource', 'Sent as')}</Typography>
              </Th>
              {STATUSES.map((s) => (
                <Th key={s}>
                  <Typography variant="sigma">{statusLabel(s)}</Typography>
                </Th>
              ))}
            </Tr>
          </Thead>
          <Tbody>
            {report.byContentType.map((row) => (
              <Tr key={row.contentType}>
                <Td>
                  <Typography fontWeight="bold">{names(row.contentType)}</Typography>
                </Td>
                <Td>
                  <Badge>{row.resource}</Badge>
                </Td>
                {STATUSES.map((s) => (
                  <Td key={s}>
                    <Typography
                      textColor={s === 'failed' && row.counts[s] ? 'danger600' : 'neutral800'}
                    >
                      {formatNumber(row.counts[s] ?? 0)}
                    </Typography>
                  </Td>
                ))}
              </Tr>
            ))}
          </Tbody>
        </Table>
      </Flex>
    </Card>
  );
};
