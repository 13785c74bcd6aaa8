import { Flex, Link, Table, Tbody, Td, Th, Thead, Tr, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import type { SyncStatusReport } from '../../../../shared/contracts/sync';
import { StatusBadge } from '../../components/StatusBadge';
import { useT } from '../../hooks/useT';
import { Card } from './Card';
import { EntryCell } from './EntryCell';

/** The entries whose last push failed, with the reason, and a link to each in the Content Manager. */
export const FailedEntries = ({ report }: { report: SyncStatusReport }) => {
  const t = useT();
  const { formatDate } = useIntl();
  return (
    <Card data-testid="failed-card">
      <Flex direction="column" alignItems="stretch" gap={4}>
        <Flex justifyContent="space-between">
          <Typography variant="delta" tag="h2">
            {t('sync.failed', 'Failed entries')}
          </Typography>
          {report.counts.failed > report.failed.length ? (
            <Typography variant="pi" textColor="neutral600">
              {t('sync.failed.more', 'Showing {shown} of {total}', {
                shown: report.failed.length,
                total: report.counts.failed,
              })}
            </Typography>
          ) : null}
        </Flex>
        {report.failed.length === 0 ? (
          <Typography textColor="neutral600">{t('sync.failed.none', 'Nothing failed.')}</Typography>
        ) : (
          <Table colCount={5} rowCount={report.failed.length + 1} data-testid="failed-table">
            <Thead>
              <Tr>
                <Th>
                  <Typography variant="sigma">{t('sync.failed.entry', 'Entry')}</Typography>
                </Th>
                <Th>
                  <Typography variant="sigma">{t('sync.failed.status', 'Status')}</Typography>
                </Th>
                <Th>
                  <Typography variant="sigma">{t('sync.failed.error', 'Error')}</Typography>
                </Th>
                <Th>
                  <Typography variant="sigma">{t('sync.failed.attempts', 'Attempts')}</Typography>
                </Th>
                <Th>
                  <Typography variant="sigma">{t('sync.failed.when', 'When')}</Typography>
                </Th>
              </Tr>
            </Thead>
            <Tbody>
              {report.failed.map((f) => (
                <Tr key={`${f.contentType}|${f.documentId}|${f.locale}`}>
                  <Td>
                    <EntryCell entry={f} detail={f.documentId}>
                      {f.viewUrl ? (
                        <Link href={f.viewUrl} isExternal>
                          {t('panel.viewUrl', 'Open on the map')}
                        </Link>
                      ) : null}
                    </EntryCell>
                  </Td>
                  <Td>
                    <StatusBadge status="failed" />
                  </Td>
                  <Td style={{ whiteSpace: 'normal', maxWidth: '40rem' }}>
                    <Typography textColor="danger600">{f.reason}</Typography>
                  </Td>
                  <Td>
                    <Typography>{f.attempts}</Typography>
                  </Td>
                  <Td>
                    <Typography variant="pi">
                      {f.at ? formatDate(f.at, { dateStyle: 'short', timeStyle: 'medium' }) : '—'}
                    </Typography>
                  </Td>
                </Tr>
              ))}
            </Tbody>
          </Table>
        )}
      </Flex>
    </Card>
  );
};
