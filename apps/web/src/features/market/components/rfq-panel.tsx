import type { Quote } from '@dart/contracts';
import { Alert, Badge, Button, EmptyState, Group, Loader, ScrollArea, Stack, Text } from '@mantine/core';
import { NetworkIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { useRfqQuotes } from '../api/list-rfq-quotes';
import { formatPrice, formatQuantum, formatYield } from '../utils/market-format';
import { Countdown } from './countdown';
import classes from './market.module.css';
import { MarketPanel } from './market-panel';

export interface RfqPanelProps {
  canTrade: boolean;
  /** Respond to (counter) an RFQ, or see the negotiations on your own. */
  onOpen: (quote: Quote) => void;
}

/**
 * Exchange RFQs (NSE / BSE RFQ through the exchange gateway): the open requests on the firm's RFQ
 * exchanges and its own, each with a countdown to its validity end (red in the last minute, then Expired).
 */
export function RfqPanel({ canTrade, onOpen }: RfqPanelProps) {
  const rfqs = useRfqQuotes();
  const rows = rfqs.data?.results ?? [];
  return (
    <MarketPanel
      id="rfq-quotes"
      title="Exchange RFQs"
      icon={<NetworkIcon />}
      actions={rfqs.isFetching ? <Loader size="xs" aria-label="Loading RFQs" /> : null}
    >
      {rfqs.isError ? (
        <Alert color="red" variant="light" title="Could not load RFQs">
          {describeError(rfqs.error)}
        </Alert>
      ) : rfqs.data?.restriction_text ? (
        <Alert color="yellow" variant="light" title="No trade access">
          {rfqs.data.restriction_text}
        </Alert>
      ) : rfqs.data && rows.length === 0 ? (
        <EmptyState
          size="sm"
          icon={<NetworkIcon />}
          withIndicatorBackground
          title="No open RFQs"
          description="Requests for quote raised on NSE or BSE RFQ for your firm will show here."
          py="lg"
        />
      ) : (
        <ScrollArea.Autosize mah={260}>
          <Stack gap={6} data-testid="rfq-list">
            {rows.map((quote) => (
              <div key={quote.id} className={classes.listItem} data-testid="rfq-item">
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Group gap={6} wrap="nowrap" miw={0}>
                    <Badge size="xs" variant="light" color={quote.quote_type === 'BID' ? 'teal' : 'red'}>
                      {quote.quote_type === 'BID' ? 'Bid' : 'Ask'}
                    </Badge>
                    <Badge size="xs" variant="outline">
                      {quote.exchange ?? 'RFQ'}
                    </Badge>
                    <Text size="sm" truncate title={`${quote.display_name} · ${quote.isin}`}>
                      {quote.display_name}
                    </Text>
                  </Group>
                  <Countdown until={quote.expiry_date_stored} size="xs" />
                </Group>
                <Group justify="space-between" wrap="nowrap" gap="xs" mt={2}>
                  <Text size="xs" c="dimmed" className={classes.mono}>
                    {formatYield(quote.yield_stored)} · {formatPrice(quote.unit_price_stored)} · {formatQuantum(quote.remaining_quantum)}{' '}
                    units
                  </Text>
                  {quote.is_mine ? (
                    <Button size="compact-xs" variant="subtle" onClick={() => onOpen(quote)}>
                      Yours · View
                    </Button>
                  ) : canTrade && quote.status === 'open' ? (
                    <Button
                      size="compact-xs"
                      variant="light"
                      onClick={() => onOpen(quote)}
                      aria-label={`Respond to the RFQ on ${quote.display_name}`}
                    >
                      Respond
                    </Button>
                  ) : null}
                </Group>
              </div>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </MarketPanel>
  );
}
