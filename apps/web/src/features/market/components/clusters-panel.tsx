import type { Cluster } from '@dart/contracts';
import { Alert, Badge, Button, Divider, EmptyState, Group, Stack, Text } from '@mantine/core';
import { ReceiptIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { ROVING_ITEM, useRovingFocus } from '../../../lib/hotkeys';
import { showToast } from '../../../lib/toast';
import { useAcceptCluster } from '../api/accept-cluster';
import { useCloseCluster } from '../api/close-cluster';
import { useDeals } from '../api/deals-store';
import { useClusters } from '../api/list-clusters';
import { formatPrice, formatSizeWithCount, formatYield } from '../utils/market-format';
import { formatRupees } from '@dart/contracts';
import { MarketPanel } from './market-panel';
import classes from './market.module.css';
import { formatBondName, formatDate } from '../../../lib/format';

function myAccepted(cluster: Cluster): boolean {
  return cluster.my_side === 'BID' ? cluster.bid_accepted : cluster.ask_accepted;
}

/** Matches (clusters) proposed by the matching engine, with accept and decline, and the deals made. */
export function ClustersPanel({ canTrade }: { canTrade: boolean }) {
  const clusters = useClusters();
  const deals = useDeals();
  const accept = useAcceptCluster();
  const close = useCloseCluster();
  const list = (clusters.data?.results ?? []).filter((cluster) => cluster.status !== 'closed');
  // Matches and deals: one Tab stop each; Up/Down move between items, Tab goes on to a match's Accept / Decline.
  const matchesFocus = useRovingFocus<HTMLDivElement>();
  const dealsFocus = useRovingFocus<HTMLDivElement>();

  return (
    <MarketPanel id="clusters" title="Matches & deals" icon={<ReceiptIcon />}>
      <Stack gap="sm">
        {clusters.isError ? (
          <Alert color="red" variant="light">
            {describeError(clusters.error)}
          </Alert>
        ) : null}
        {list.length === 0 && deals.length === 0 ? (
          <EmptyState
            size="sm"
            icon={<ReceiptIcon />}
            withIndicatorBackground
            title="No matches yet"
            description="When a bid and an ask cross on the same bond and settlement, the match appears here for both sides to accept."
            py="lg"
          />
        ) : null}
        {list.length > 0 ? (
          <Stack gap={6} role="list" aria-label="Matches" {...matchesFocus}>
            {list.map((cluster) => (
              <div key={cluster.id} role="listitem" className={classes.listItem} data-testid="cluster-item" {...ROVING_ITEM}>
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Stack gap={0} style={{ minWidth: 0 }}>
                    <Text size="sm" fw={500} lineClamp={1}>
                      {cluster.my_side === 'BID' ? 'Buy' : 'Sell'} {formatBondName(cluster.display_name)}
                    </Text>
                    <Text size="xs" c="dimmed" className={classes.mono}>
                      {formatSizeWithCount(cluster.quantum, cluster.face_value_per_bond)} at {formatPrice(cluster.price)} (
                      {formatYield(cluster.yield)}) · settles {formatDate(cluster.settlement_date)}
                    </Text>
                  </Stack>
                  {cluster.status === 'accepted' ? (
                    <Badge color="teal" variant="light" radius="sm" style={{ flexShrink: 0 }}>
                      Deal
                    </Badge>
                  ) : myAccepted(cluster) ? (
                    <Badge color="gray" variant="light" radius="sm" style={{ flexShrink: 0 }}>
                      Waiting for the other side
                    </Badge>
                  ) : canTrade ? (
                    <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                      <Button
                        size="compact-sm"
                        color="teal"
                        loading={accept.isPending && accept.variables.id === cluster.id}
                        onClick={() =>
                          accept.mutate(cluster, {
                            onSuccess: (next) =>
                              showToast({
                                severity: 'success',
                                summary: next.status === 'accepted' ? 'Deal done' : 'Match accepted',
                                detail: next.status === 'accepted' ? cluster.display_name : 'Waiting for the other side to accept.',
                              }),
                            onError: (error) => showToast({ severity: 'error', summary: 'Could not accept', detail: describeError(error) }),
                          })
                        }
                      >
                        Accept
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="default"
                        loading={close.isPending && close.variables === cluster.id}
                        onClick={() => close.mutate(cluster.id)}
                      >
                        Decline
                      </Button>
                    </Group>
                  ) : null}
                </Group>
              </div>
            ))}
          </Stack>
        ) : null}
        {deals.length > 0 ? (
          <>
            <Divider label="Deals" labelPosition="left" />
            <Stack gap={6} role="list" aria-label="Deals" {...dealsFocus}>
              {deals.map((deal) => (
                <div key={deal.id} role="listitem" className={classes.listItem} data-testid="deal-item" {...ROVING_ITEM}>
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Text size="sm" fw={500} lineClamp={1}>
                        {deal.side === 'buy' ? 'Bought' : deal.side === 'sell' ? 'Sold' : 'Deal'} ·{' '}
                        {deal.display_name ? formatBondName(deal.display_name) : `Bond ${deal.finstrument_id}`}
                      </Text>
                      <Text size="xs" c="dimmed" className={classes.mono}>
                        {formatSizeWithCount(deal.quantum, deal.face_value_per_bond)} at {formatPrice(deal.price)} (
                        {formatYield(deal.yield)}) · settles {formatDate(deal.settlement_date)}
                      </Text>
                    </Stack>
                    <Text size="sm" fw={600} className={classes.mono} style={{ whiteSpace: 'nowrap' }}>
                      {formatRupees(deal.consideration)}
                    </Text>
                  </Group>
                </div>
              ))}
            </Stack>
          </>
        ) : null}
      </Stack>
    </MarketPanel>
  );
}
