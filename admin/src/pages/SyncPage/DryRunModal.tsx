import { Box, Button, Flex, Modal, Typography } from '@strapi/design-system';
import type { DryRunPlan, LabelledKey } from '../../../../shared/contracts/sync';
import { useT } from '../../hooks/useT';

/** What a resync would do, entry by entry; nothing is sent. */
export const DryRunModal = ({
  plan,
  names,
  onClose,
}: {
  plan: DryRunPlan;
  names: (uid: string) => string;
  onClose: () => void;
}) => {
  const t = useT();
  const section = (title: string, keys: Array<LabelledKey & { reason?: string }>, tone: string) => (
    <Box>
      <Typography variant="delta" textColor={tone}>
        {title} ({keys.length}
        {keys.length >= plan.truncatedAt ? '+' : ''})
      </Typography>
      {keys.length ? (
        <Box paddingTop={2}>
          {keys.map((k) => (
            <Box key={`${k.contentType}|${k.documentId}|${k.locale}`} paddingBottom={1}>
              <Typography tag="p">
                <Typography fontWeight="semiBold">{k.label ?? k.documentId}</Typography>
                <Typography variant="pi" textColor="neutral600">
                  {` · ${names(k.contentType)}${k.locale ? ` · ${k.locale}` : ''}`}
                </Typography>
              </Typography>
              {k.reason ? (
                <Typography tag="p" variant="pi" textColor="danger600">
                  {k.reason}
                </Typography>
              ) : null}
            </Box>
          ))}
        </Box>
      ) : null}
    </Box>
  );
  return (
    <Modal.Root open onOpenChange={(open: boolean) => !open && onClose()}>
      <Modal.Content>
        <Modal.Header>
          <Modal.Title>{t('dryRun.title', 'Dry run: what a resync would do')}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Flex direction="column" alignItems="stretch" gap={4} data-testid="dry-run">
            {section(t('dryRun.create', 'Create'), plan.create, 'success600')}
            {section(t('dryRun.update', 'Update'), plan.update, 'primary600')}
            {section(t('dryRun.delete', 'Delete'), plan.delete, 'warning600')}
            {section(t('dryRun.failed', 'Cannot be pushed'), plan.failed, 'danger600')}
            <Typography textColor="neutral600">
              {t(
                'dryRun.unchanged',
                '{count, plural, one {# entry is} other {# entries are}} already up to date.',
                { count: plan.unchanged }
              )}{' '}
              {t('dryRun.truncated', 'Each list shows at most {n} entries.', {
                n: plan.truncatedAt,
              })}
            </Typography>
          </Flex>
        </Modal.Body>
        <Modal.Footer>
          <Modal.Close>
            <Button variant="tertiary">{t('dryRun.close', 'Close')}</Button>
          </Modal.Close>
        </Modal.Footer>
      </Modal.Content>
    </Modal.Root>
  );
};
