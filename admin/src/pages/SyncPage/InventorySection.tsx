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
import { useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import type { PushEnvironment } from '../../../../shared/contracts/environment';
import type {
  ConfirmLinks,
  InventoryProgress,
  LinkProposal,
} from '../../../../shared/contracts/inventory';
import { useT } from '../../hooks/useT';
import {
  useConfirmLinksMutation,
  useInventory,
  useLazyGetLinkProposalQuery,
  useRunInventoryMutation,
} from '../../services/api';
import { useRequestError } from '../../services/errors';
import { Card } from './Card';
import { ImportSection } from './ImportSection';

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
  environment,
}: {
  canTrigger: boolean;
  /** bumped to open the link proposal from elsewhere */ openLink?: number;
  /** outside pushIn, the card says what its buttons do and do not do here */
  environment?: PushEnvironment;
}) => {
  const { formatDate, formatNumber } = useIntl();
  const t = useT();
  const { toggleNotification } = useNotification();
  const { notify } = useRequestError();
  // A failed read shows nothing here: the dashboard's own status shows a lost connection.
  const { data: inventory } = useInventory();
  const [runInventory, walking] = useRunInventoryMutation();
  const [getProposal, proposing] = useLazyGetLinkProposalQuery();
  const [confirmLinks, confirming] = useConfirmLinksMutation();
  const [proposal, setProposal] = React.useState<LinkProposal | null>(null);
  const [choices, setChoices] = React.useState<Record<string, string>>({});
  const busy = walking.isLoading || proposing.isFetching || confirming.isLoading;

  const walk = async () => {
    const res = await runInventory();
    if ('error' in res) notify(res.error);
  };

  const propose = async () => {
    const res = await getProposal();
    if (res.error) return notify(res.error);
    setChoices({});
    setProposal(res.data ?? null);
  };

  const confirm = async () => {
    const picked: ConfirmLinks.Request['choices'] = {};
    for (const [k, v] of Object.entries(choices)) picked[k] = v === SKIP ? null : Number(v);
    const res = await confirmLinks({ choices: picked });
    if ('error' in res) return notify(res.error);
    setProposal(null);
    toggleNotification({
      type: 'success',
      message: t(
        'link.done',
        '{count, plural, one {# entry linked} other {# entries linked}}: their next push updates the object in place.',
        { count: res.data.proposal.applied }
      ),
    });
  };

  React.useEffect(() => {
    if (openLink && canTrigger) propose();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openLink]);

  if (!inventory) return null;
  const running = inventory.state === 'running';
  const objects = inventory.phases.reduce((n, p) => n + p.objects, 0);
  const held = inventory.held;
  const when = (iso: string) => formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' });
  /**
   * The walk the counts come from: the last complete one, or (after a walk that stopped, e.g.
   * with a restart) the one that read part of them. Without it, counts kept from an old walk
   * look current.
   */
  const unfinished =
    inventory.state === 'failed' || (inventory.state === 'idle' && !inventory.lastCompleteAt);
  const partialFrom =
    inventory.startedAt ??
    inventory.phases
      .map((p) => p.startedAt)
      .filter((d): d is string => Boolean(d))
      .sort()
      .pop() ??
    null;
  const heldAny = held.pinpoint + held.event + held.category + held.list > 0;
  // (A complete walk's date is the line below.)
  const readWhen =
    !running && unfinished && partialFrom && heldAny
      ? t('inventory.readPartial', 'read by the walk of {when}, which did not finish', {
          when: when(partialFrom),
        })
      : null;

  return (
    <Card data-testid="inventory">
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
                loading={walking.isLoading}
                disabled={running || busy}
                data-testid="inventory-walk"
              >
                {inventory.state === 'failed'
                  ? t('inventory.resume', 'Resume the walk')
                  : t('inventory.walk', 'Walk the remote account')}
              </Button>
              <Button
                onClick={propose}
                loading={proposing.isFetching}
                disabled={running || busy || !inventory.lastCompleteAt}
                data-testid="link-open"
              >
                {t('link.open', 'Link existing objects')}
              </Button>
            </Flex>
          ) : null}
        </Flex>
        {canTrigger && environment && !environment.pushing ? (
          <Typography variant="pi" textColor="warning700" data-testid="inventory-not-pushing">
            {t(
              'inventory.notPushing',
              'Nothing is pushed in "{name}": the walk only reads the remote account, and linked entries wait in the queue.',
              { name: environment.name }
            )}
          </Typography>
        ) : null}
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
            : readWhen
              ? ` · ${readWhen}`
              : ''}
        </Typography>
        <Typography textColor="neutral600" data-testid="inventory-last">
          {inventory.lastCompleteAt
            ? t('inventory.last', 'Last complete walk: {when}', {
                when: when(inventory.lastCompleteAt),
              })
            : t('inventory.never', 'The remote account has not been walked yet.')}
        </Typography>
        {inventory.error ? (
          <Typography textColor="danger600" data-testid="inventory-error">
            {inventory.error}
          </Typography>
        ) : null}
        <ImportSection canTrigger={canTrigger} disabled={running || busy} />
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
              <Button onClick={confirm} loading={confirming.isLoading} data-testid="link-confirm">
                {t('link.confirm', 'Link them')}
              </Button>
            </Modal.Footer>
          </Modal.Content>
        </Modal.Root>
      ) : null}
    </Card>
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
  const t = useT();
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
        {t(
          'sync.resync.unowned',
          'The remote account holds {count, plural, one {# object} other {# objects}} that no entry owns. A resync creates a new object for every entry not linked yet: link the existing objects first.',
          { count: inventory.unowned }
        )}
      </Typography>
      <Button variant="secondary" onClick={onLink} data-testid="resync-link-first">
        {t('sync.resync.linkFirst', 'Link existing objects first')}
      </Button>
    </Flex>
  );
};
