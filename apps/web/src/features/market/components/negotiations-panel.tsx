import { Badge, EmptyState, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { QuoteIcon } from '../../../components/ui/icons';
import { formatDateTime } from '../../../lib/format';
import { ROVING_ITEM, useRovingFocus } from '../../../lib/hotkeys';
import { isMyTurn, lastCounter, useNegotiations } from '../api/negotiations-store';
import { formatPrice, formatSize, formatYield } from '../utils/market-format';
import { MarketPanel } from './market-panel';
import classes from './market.module.css';
import type { NegotiationTarget } from './negotiation-dialog';

const STATUS = {
  open: { label: 'Open', color: 'blue' },
  accepted: { label: 'Deal', color: 'teal' },
  rejected: { label: 'Rejected', color: 'gray' },
} as const;

/**
 * Negotiations (the RFQ-quotes panel): counters on the caller's quotes and on quotes the caller
 * countered, newest first; "Your turn" when the other side countered last.
 */
export function NegotiationsPanel({ onOpen }: { onOpen: (target: NegotiationTarget) => void }) {
  const records = useNegotiations();
  // One Tab stop; Up/Down move between negotiations, Enter opens one.
  const roving = useRovingFocus<HTMLDivElement>({ enterLabel: 'Open the negotiation' });
  return (
    <MarketPanel id="negotiations" title="RFQ quotes & negotiations" icon={<QuoteIcon />}>
      {records.length === 0 ? (
        <EmptyState
          size="sm"
          icon={<QuoteIcon />}
          withIndicatorBackground
          title="No negotiations"
          description="Counters on your quotes, and on quotes you counter, appear here live. Exchange RFQs (NSE, BSE) will join them."
          py="lg"
        />
      ) : (
        <Stack gap={6} role="list" aria-label="Negotiations" {...roving}>
          {records.map((record) => {
            const last = lastCounter(record);
            const turn = isMyTurn(record);
            return (
              <UnstyledButton
                key={record.id}
                role="listitem"
                {...ROVING_ITEM}
                onClick={() => onOpen({ quoteId: record.quote_id, negotiationId: record.id })}
                className={classes.listItem}
                data-testid="negotiation-item"
              >
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Stack gap={0} style={{ minWidth: 0 }}>
                    <Text size="sm" fw={500}>
                      {record.role === 'quoter' ? 'Counter on your quote' : 'Your counter'}
                    </Text>
                    <Text size="xs" c="dimmed" className={classes.mono}>
                      {last
                        ? `${formatYield(last.yield_stored)} · ${formatPrice(last.unit_price_stored)} · ${formatSize(last.quantum)}`
                        : '—'}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatDateTime(record.updated_at)}
                    </Text>
                  </Stack>
                  <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                    {turn ? (
                      <Badge color="orange" variant="filled" radius="sm" size="sm">
                        Your turn
                      </Badge>
                    ) : null}
                    <Badge color={STATUS[record.status].color} variant="light" radius="sm" size="sm">
                      {STATUS[record.status].label}
                    </Badge>
                  </Group>
                </Group>
              </UnstyledButton>
            );
          })}
          <Text size="xs" c="dimmed" ta="center">
            Your firm's negotiations, last change first
          </Text>
        </Stack>
      )}
    </MarketPanel>
  );
}
