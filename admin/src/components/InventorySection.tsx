import * as React from 'react';
import {
  Badge,
  Box,
  Button,
  Field,
  Flex,
  Modal,
  SingleSelect,
  SingleSelectOption,
  Typography,
} from '@strapi/design-system';
import { useFetchClient, useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import type {
  ConfirmLinks,
  GetInventory,
  GetLinkProposal,
  InventoryProgress,
  LinkProposal,
} from '../../../shared/contracts/inventory';
import { API, errorMessage } from '../utils/api';
import { getTranslation } from '../utils/getTranslation';

const INVENTORY = `${API.status.replace(/\/status$/, '')}/inventory`;
const LINK = `${API.status.replace(/\/status$/, '')}/link`;
const SKIP = 'skip';

const keyOf = (e: { contentType: string; documentId: string; locale: string }) =>
  `${e.contentType}|${e.documentId}|${e.locale}`;

/**
 * The remote inventory on the dashboard: the walk's progress and the last complete one, and
 * "Link existing objects" for an account that already has content.
 */
export const InventorySection = ({
  canTrigger,
  openLink = 0,
}: {
  canTrigger: boolean;
  /** bumped to open the link proposal from elsewhere */ openLink?: number;
}) => {
  const { formatMessage, formatDate, formatNumber } = useIntl();
  const t = (id: string, defaultMessage: string, values?: Record<string, any>) =>
    formatMessage({ id: getTranslation(id), defaultMessage }, values);
  const { get, post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const [inventory, setInventory] = React.useState<InventoryProgress | null>(null);
  const [proposal, setProposal] = React.useState<LinkProposal | null>(null);
  const [choices, setChoices] = React.useState<Record<string, string>>({});
  const [busy, setBusy] = React.useState<'walk' | 'propose' | 'confirm' | null>(null);

  const load = React.useCallback(async () => {
    try {
      const { data } = await get<GetInventory.Response>(INVENTORY);
      setInventory(data.inventory);
    } catch {
      // the dashboard's own status shows a lost connection
    }
  }, [get]);

  React.useEffect(() => {
    load();
    const timer = setInterval(load, inventory?.state === 'running' ? 1000 : 5000);
    return () => clearInterval(timer);
  }, [load, inventory?.state]);

  const walk = async () => {
    setBusy('walk');
    try {
      const { data } = await post<GetInventory.Response>(INVENTORY, {});
      setInventory(data.inventory);
    } catch (err) {
      toggleNotification({ type: 'danger', message: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  };

  const propose = async () => {
    setBusy('propose');
    try {
      const { data } = await get<GetLinkProposal.Response>(LINK);
      setChoices({});
      setProposal(data.proposal);
    } catch (err) {
      toggleNotification({ type: 'danger', message: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  };

  const confirm = async () => {
    setBusy('confirm');
    try {
      const picked: ConfirmLinks.Request['choices'] = {};
      for (const [k, v] of Object.entries(choices)) picked[k] = v === SKIP ? null : Number(v);
      const { data } = await post<ConfirmLinks.Response>(LINK, {
        choices: picked,
      });
      setProposal(null);
      toggleNotification({
        type: 'success',
        message: t(
          'link.done',
          '{count, plural, one {# entry linked} other {# entries linked}}: their next push updates the object in place.',
          {
            count: data.proposal.applied,
          }
        ),
      });
    } catch (err) {
      toggleNotification({ type: 'danger', message: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  };

  React.useEffect(() => {
    if (openLink && canTrigger) propose();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openLink]);

  if (!inventory) return null;
  const running = inventory.state === 'running';
  const objects = inventory.phases.reduce((n, p) => n + p.objects, 0);
  const held = inventory.held;

  return (
    <Box background="neutral0" hasRadius shadow="filterShadow" padding={6} data-testid="inventory">
      <Flex direction="column" alignItems="stretch" gap={3}>
        <Flex justifyContent="space-between" wrap="wrap" gap={2}>
          <Flex gap={2}>
            <Typography variant="delta" tag="h2">
              {t('inventory.title', 'Remote account')}
            </Typography>
            <Badge
              variant={running ? 'secondary' : inventory.state === 'failed' ? 'danger' : 'neutral'}
              data-testid="inventory-state"
            >
              {running
                ? t('inventory.running', 'Walking: {phase}', {
                    phase: inventory.phase ?? '…',
                  })
                : inventory.state === 'failed'
                  ? t('inventory.failed', 'Stopped')
                  : t('inventory.idle', 'Idle')}
            </Badge>
          </Flex>
          {canTrigger ? (
            <Flex gap={2}>
              <Button
                variant="secondary"
                onClick={walk}
                loading={busy === 'walk'}
                disabled={running || busy !== null}
                data-testid="inventory-walk"
              >
                {inventory.state === 'failed'
                  ? t('inventory.resume', 'Resume the walk')
                  : t('inventory.walk', 'Walk the remote account')}
              </Button>
              <Button
                onClick={propose}
                loading={busy === 'propose'}
                disabled={running || busy !== null || !inventory.lastCompleteAt}
                data-testid="link-open"
              >
                {t('link.open', 'Link existing objects')}
              </Button>
            </Flex>
          ) : null}
        </Flex>
        <Typography data-testid="inventory-held">
          {t(
            'inventory.held',
            '{pinpoints} pinpoints, {events} events, {categories} categories, {lists} lists ({members} list members)',
            {
              pinpoints: formatNumber(held.pinpoint),
              events: formatNumber(held.event),
              categories: formatNumber(held.category),
              lists: formatNumber(held.list),
              members: formatNumber(held.members),
            }
          )}
          {running
            ? ` · ${t('inventory.progress', '{objects} objects read in this walk', { objects: formatNumber(objects) })}`
            : ''}
        </Typography>
        <Typography textColor="neutral600" data-testid="inventory-last">
          {inventory.lastCompleteAt
            ? t('inventory.last', 'Last complete walk: {when}', {
                when: formatDate(inventory.lastCompleteAt, {
                  dateStyle: 'medium',
                  timeStyle: 'short',
                }),
              })
            : t('inventory.never', 'The remote account has not been walked yet.')}
        </Typography>
        {inventory.error ? (
          <Typography textColor="danger600" data-testid="inventory-error">
            {inventory.error}
          </Typography>
        ) : null}
      </Flex>

      {proposal ? (
        <Modal.Root open onOpenChange={(open: boolean) => !open && setProposal(null)}>
          <Modal.Content>
            <Modal.Header>
              <Modal.Title>{t('link.title', 'Link existing objects')}</Modal.Title>
            </Modal.Header>
            <Modal.Body>
              <Flex direction="column" alignItems="stretch" gap={4} data-testid="link-proposal">
                <Typography>
                  {t(
                    'link.summary',
                    '{linked} to link, {ambiguous} to choose, {unmatched} will be created, {unowned} remote objects match no entry.',
                    proposal.counts
                  )}
                </Typography>
                {proposal.linked.length ? (
                  <Box>
                    <Typography variant="sigma" textColor="success600">
                      {t('link.linked', 'Linked')}
                    </Typography>
                    {proposal.linked.map((l) => (
                      <Typography key={keyOf(l)} tag="p">
                        {l.label ?? l.name} → {l.resource} {l.remoteId}
                      </Typography>
                    ))}
                  </Box>
                ) : null}
                {proposal.ambiguous.map((a) => (
                  <Field.Root key={keyOf(a)}>
                    <Field.Label>
                      {t('link.pick', '{name}: several remote objects match', {
                        name: a.label ?? a.name,
                      })}
                    </Field.Label>
                    <SingleSelect
                      placeholder={t('link.skip', 'Skip (create a new object)')}
                      value={choices[keyOf(a)] ?? SKIP}
                      onChange={(v: string | number) =>
                        setChoices((c) => ({ ...c, [keyOf(a)]: String(v) }))
                      }
                      data-testid="link-choice"
                    >
                      <SingleSelectOption value={SKIP}>
                        {t('link.skip', 'Skip (create a new object)')}
                      </SingleSelectOption>
                      {a.candidates.map((c) => (
                        <SingleSelectOption key={c.remoteId} value={String(c.remoteId)}>
                          {`${a.resource} ${c.remoteId}: ${c.name ?? ''}${c.latitude != null ? ` (${c.latitude}, ${c.longitude})` : ''}${c.firstStart ? ` ${c.firstStart}` : ''}`}
                        </SingleSelectOption>
                      ))}
                    </SingleSelect>
                  </Field.Root>
                ))}
                {proposal.unmatched.length ? (
                  <Typography textColor="neutral600">
                    {t('link.unmatched', 'Will be created: {names}', {
                      names: proposal.unmatched.map((u) => u.label ?? u.name).join(', '),
                    })}
                  </Typography>
                ) : null}
                {proposal.unowned.length ? (
                  <Typography textColor="neutral600">
                    {t('link.unowned', 'On the remote, matching no entry: {names}', {
                      names: proposal.unowned
                        .map((u) => `${u.name ?? ''} (${u.resource} ${u.remoteId})`)
                        .join(', '),
                    })}
                  </Typography>
                ) : null}
                <Typography textColor="neutral600">
                  {t('link.truncated', 'Each list shows at most {n} items.', {
                    n: proposal.truncatedAt,
                  })}
                </Typography>
              </Flex>
            </Modal.Body>
            <Modal.Footer>
              <Modal.Close>
                <Button variant="tertiary">{t('link.cancel', 'Cancel')}</Button>
              </Modal.Close>
              <Button onClick={confirm} loading={busy === 'confirm'} data-testid="link-confirm">
                {t('link.confirm', 'Link them')}
              </Button>
            </Modal.Footer>
          </Modal.Content>
        </Modal.Root>
      ) : null}
    </Box>
  );
};

/** In the resync's confirmation: a resync creates an object for every entry not linked yet. */
export const UnownedWarning = ({
  inventory,
  onLink,
}: {
  inventory?: InventoryProgress;
  onLink: () => void;
}) => {
  const { formatMessage } = useIntl();
  if (!inventory?.lastCompleteAt || !inventory.unowned) return null;
  return (
    <Flex
      direction="column"
      alignItems="stretch"
      gap={2}
      paddingTop={3}
      data-testid="resync-unowned"
    >
      <Typography textColor="warning600">
        {formatMessage(
          {
            id: getTranslation('sync.resync.unowned'),
            defaultMessage:
              'The remote account holds {count, plural, one {# object} other {# objects}} that no entry owns. A resync creates a new object for every entry not linked yet: link the existing objects first.',
          },
          { count: inventory.unowned }
        )}
      </Typography>
      <Button variant="secondary" onClick={onLink} data-testid="resync-link-first">
        {formatMessage({
          id: getTranslation('sync.resync.linkFirst'),
          defaultMessage: 'Link existing objects first',
        })}
      </Button>
    </Flex>
  );
};
