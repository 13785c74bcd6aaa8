import * as React from 'react';
import { Box, Button, Flex, Grid, Modal, Typography } from '@strapi/design-system';
import { Eye } from '@strapi/icons';
import type { PayloadPreview as Preview } from '../../../shared/contracts/preview';
import { useT } from '../hooks/useT';
import { useLazyGetPreviewQuery } from '../services/api';
import { useRequestError } from '../services/errors';

const show = (value: unknown) =>
  typeof value === 'string' ? value : JSON.stringify(value, null, 1);

const Version = ({ preview, title }: { preview: Preview; title: string }) => {
  const t = useT();
  return (
    <Flex
      direction="column"
      alignItems="stretch"
      gap={2}
      data-testid={`preview-${preview.version}`}
    >
      <Typography variant="delta">{title}</Typography>
      {preview.skipped ? (
        <Typography textColor="neutral600">
          {t('preview.skipped', 'Nothing would be sent: {reason}', { reason: preview.skipped })}
        </Typography>
      ) : null}
      {preview.problems.map((p) => (
        <Typography key={p.field} textColor="danger600">
          {p.field}: {p.reason}
        </Typography>
      ))}
      {preview.waitsFor.map((w) => (
        <Typography
          key={`${w.contentType}|${w.documentId}`}
          textColor={w.blocking ? 'warning600' : 'neutral600'}
        >
          {t('preview.waitsFor', '{role}: waits for {contentType} {documentId} to be pushed', {
            role: w.role,
            contentType: w.contentType,
            documentId: w.documentId,
          })}
        </Typography>
      ))}
      {preview.payload
        ? Object.entries(preview.payload).map(([field, value]) => (
            <Box key={field}>
              <Typography variant="sigma" textColor="neutral600">
                {field}
              </Typography>
              <Typography
                tag="pre"
                style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', fontFamily: 'monospace' }}
              >
                {show(value)}
              </Typography>
            </Box>
          ))
        : null}
    </Flex>
  );
};

/** Side panel: "Preview payload" shows what the draft and the published version would send now. Nothing is sent. */
export const PayloadPreviewButton = ({
  contentType,
  documentId,
  locale,
}: {
  contentType: string;
  documentId: string;
  locale?: string;
}) => {
  const t = useT();
  const { message } = useRequestError();
  const [getPreview, { isFetching: loading }] = useLazyGetPreviewQuery();
  const [previews, setPreviews] = React.useState<Preview[] | null>(null);
  const [error, setError] = React.useState<string | null>(null);

  const open = async () => {
    const res = await getPreview({ contentType, documentId, locale });
    if (res.error) return setError(message(res.error));
    setPreviews(res.data?.previews ?? null);
    setError(null);
  };

  return (
    <>
      <Button
        variant="tertiary"
        startIcon={<Eye />}
        onClick={open}
        loading={loading}
        fullWidth
        data-testid="preview-payload"
      >
        {t('preview.button', 'Preview payload')}
      </Button>
      {error ? <Typography textColor="danger600">{error}</Typography> : null}
      {previews ? (
        <Modal.Root open onOpenChange={(o: boolean) => !o && setPreviews(null)}>
          <Modal.Content>
            <Modal.Header>
              <Modal.Title>
                {t('preview.title', 'What this entry would send now (nothing is sent)')}
              </Modal.Title>
            </Modal.Header>
            <Modal.Body>
              <Grid.Root gap={4}>
                {previews.map((p) => (
                  <Grid.Item
                    key={p.version}
                    col={12 / previews.length}
                    s={12}
                    alignItems="flex-start"
                  >
                    <Version
                      preview={p}
                      title={
                        p.version === 'draft'
                          ? t('preview.draft', 'Draft being edited')
                          : t('preview.published', 'Published version')
                      }
                    />
                  </Grid.Item>
                ))}
              </Grid.Root>
            </Modal.Body>
            <Modal.Footer>
              <Modal.Close>
                <Button variant="tertiary">{t('preview.close', 'Close')}</Button>
              </Modal.Close>
            </Modal.Footer>
          </Modal.Content>
        </Modal.Root>
      ) : null}
    </>
  );
};
