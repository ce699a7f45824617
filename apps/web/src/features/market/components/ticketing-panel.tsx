import { EmptyState, Text } from '@mantine/core';
import { formatRupees } from '@dart/contracts';
import { TicketIcon } from '../../../components/ui/icons';
import { useDeals } from '../api/deals-store';
import { formatPrice, formatSizeWithCount, formatYield } from '../utils/market-format';
import classes from './market.module.css';
import { formatBondName, formatDate } from '../../../lib/format';

/**
 * Ticketing (spec §2 panel): the firm's deals awaiting a deal ticket, newest first, until the
 * post-trade work issues tickets (every deal awaits one today).
 */
export function TicketingPanel() {
  const deals = useDeals();
  if (deals.length === 0)
    return (
      <EmptyState
        size="sm"
        icon={<TicketIcon />}
        withIndicatorBackground
        title="No deals awaiting tickets"
        description="Deals you make are listed here until their deal ticket is created and reported to the exchange."
        py="lg"
      />
    );
  return (
    <ul className={classes.blotter} aria-label="Deals awaiting tickets">
      {deals.map((deal) => (
        <li key={deal.id} className={classes.blotterRow} data-testid="ticketing-deal">
          <Text size="xs" fw={600} c={deal.side === 'sell' ? 'red' : 'teal'} className={classes.blotterSide}>
            {deal.side === 'sell' ? 'Sold' : deal.side === 'buy' ? 'Bought' : 'Deal'}
          </Text>
          <Text
            size="xs"
            truncate
            className={classes.blotterName}
            title={deal.display_name ? formatBondName(deal.display_name) : undefined}
          >
            {deal.display_name ? formatBondName(deal.display_name) : `Bond ${deal.finstrument_id}`}
            {deal.counterparty ? ` · ${deal.counterparty}` : ''}
          </Text>
          <Text size="xs" className={classes.mono}>
            {formatSizeWithCount(deal.quantum, deal.face_value_per_bond)} · {formatYield(deal.yield)} · {formatPrice(deal.price)}
          </Text>
          <Text size="xs" c="dimmed" className={classes.mono}>
            {formatRupees(deal.consideration)} · settles {formatDate(deal.settlement_date)}
          </Text>
        </li>
      ))}
    </ul>
  );
}
