import type { MyRfq, MyRfqResponse, Quote } from '@dart/contracts';
import { Alert, Badge, Button, EmptyState, Group, Loader, Stack, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import { NetworkIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { showToast } from '../../../lib/toast';
import { useMyRfqs } from '../api/list-my-rfqs';
import { useRfqQuotes } from '../api/list-rfq-quotes';
import { useNegotiateQuote } from '../api/negotiate-quote';
import { useNow } from '../../../lib/use-now';
import { formatPrice, formatSizeWithCount, formatYield, QUOTE_STATUS_LABELS } from '../utils/market-format';
import { Countdown } from './countdown';
import classes from './market.module.css';
import { MarketPanel } from './market-panel';
import type { MarketSlots } from './market-slots';
import { RaiseRfqButton } from './raise-rfq-dialog';

export interface RfqPanelProps extends Partial<Pick<MarketSlots, 'renderBondSearch' | 'renderPricing'>> {
  canTrade: boolean;
  /** Respond to (counter) an RFQ, or see the negotiations on your own. */
  onOpen: (quote: Quote) => void;
}

/** Badges and the row's controls keep their size; only the bond name gives way (truncated, full name in its title). */
const FIXED = { flexShrink: 0 } as const;

/** `₹5 Cr · 5,00,000 bonds` when the bond's face value per bond is known, else `₹5 Cr`. */
const sizeText = formatSizeWithCount;
const perBondOf = (quote: Quote) => quote.face_value_per_bond;

/**
 * Exchange RFQs (NSE / BSE RFQ through the exchange gateway). "Market": the open requests on the firm's
 * RFQ exchanges and its own, each counting down to its validity end (red in the last minute, then
 * Expired), with Respond. "My RFQs": the RFQs the firm raised, with every participant's response arriving
 * live, its own countdown, and Accept (the negotiation accept: a deal, reported to the exchange).
 * "Raise RFQ" in the header opens the raise dialog (not shown to users who cannot trade).
 */
export function RfqPanel({ canTrade, onOpen, renderBondSearch, renderPricing }: RfqPanelProps) {
  const [tab, setTab] = useState<string>('market');
  const rfqs = useRfqQuotes();
  const mine = useMyRfqs(canTrade);
  // Responses to the firm's own RFQs are read under My RFQs.
  const rows = (rfqs.data?.results ?? []).filter((quote) => !quote.respond_to || quote.is_mine);
  const myRows = mine.data?.results ?? [];
  const openMine = myRows.filter((rfq) => rfq.status === 'open').length;
  return (
    <MarketPanel
      id="rfq-quotes"
      title="Exchange RFQs"
      icon={<NetworkIcon />}
      actions={
        <>
          {rfqs.isFetching || mine.isFetching ? <Loader size="xs" aria-label="Loading RFQs" /> : null}
          {canTrade && renderBondSearch && renderPricing ? (
            <RaiseRfqButton
              size="compact-sm"
              onRaised={() => setTab('mine')}
              renderBondSearch={renderBondSearch}
              renderPricing={renderPricing}
            />
          ) : null}
        </>
      }
    >
      {rfqs.isError ? (
        <Alert color="red" variant="light" title="Could not load RFQs">
          {describeError(rfqs.error)}
        </Alert>
      ) : rfqs.data?.restriction_text ? (
        <Alert color="yellow" variant="light" title="No trade access">
          {rfqs.data.restriction_text}
        </Alert>
      ) : (
        <Tabs value={tab} onChange={(value) => setTab(value ?? 'market')} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="market">Market</Tabs.Tab>
            {canTrade ? (
              <Tabs.Tab
                value="mine"
                rightSection={
                  openMine > 0 ? (
                    <Badge size="xs" variant="light" circle style={FIXED}>
                      {openMine}
                    </Badge>
                  ) : null
                }
              >
                My RFQs
              </Tabs.Tab>
            ) : null}
          </Tabs.List>
          <Tabs.Panel value="market" pt="xs">
            {rfqs.data && rows.length === 0 ? (
              <EmptyState
                size="sm"
                icon={<NetworkIcon />}
                withIndicatorBackground
                title="No open RFQs"
                description="Requests for quote raised on NSE or BSE RFQ for your firm will show here."
                py="lg"
              />
            ) : (
              <Stack gap={6} data-testid="rfq-list">
                {rows.map((quote) => (
                  <MarketRfqRow key={quote.id} quote={quote} canTrade={canTrade} onOpen={onOpen} />
                ))}
              </Stack>
            )}
          </Tabs.Panel>
          {canTrade ? (
            <Tabs.Panel value="mine" pt="xs">
              {mine.isError ? (
                <Alert color="red" variant="light" title="Could not load your RFQs">
                  {describeError(mine.error)}
                </Alert>
              ) : mine.data && myRows.length === 0 ? (
                <EmptyState
                  size="sm"
                  icon={<NetworkIcon />}
                  withIndicatorBackground
                  title="No RFQs raised"
                  description="RFQs you raise on NSE or BSE show here with the responses they draw."
                  py="lg"
                />
              ) : (
                <Stack gap={6} data-testid="my-rfq-list">
                  {myRows.map((rfq) => (
                    <MyRfqRow key={rfq.id} rfq={rfq} />
                  ))}
                </Stack>
              )}
            </Tabs.Panel>
          ) : null}
        </Tabs>
      )}
    </MarketPanel>
  );
}

function RfqHeading({ quote }: { quote: Quote }) {
  return (
    <Group gap={6} wrap="nowrap" miw={0} style={{ flex: 1 }}>
      <Badge size="xs" variant="light" color={quote.quote_type === 'BID' ? 'teal' : 'red'} style={FIXED}>
        {quote.quote_type === 'BID' ? 'Bid' : 'Ask'}
      </Badge>
      <Badge size="xs" variant="outline" style={FIXED}>
        {quote.exchange ?? 'RFQ'}
      </Badge>
      <Text size="sm" truncate title={`${quote.display_name} · ${quote.isin}`} miw={0}>
        {quote.display_name}
      </Text>
    </Group>
  );
}

function MarketRfqRow({ quote, canTrade, onOpen }: { quote: Quote; canTrade: boolean; onOpen: (quote: Quote) => void }) {
  return (
    <div className={classes.listItem} data-testid="rfq-item">
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <RfqHeading quote={quote} />
        <span style={FIXED}>
          <Countdown until={quote.expiry_date_stored} size="xs" />
        </span>
      </Group>
      <Group justify="space-between" wrap="wrap" gap="xs" mt={2}>
        <Text size="xs" c="dimmed" className={classes.mono}>
          {formatYield(quote.yield_stored)} · {formatPrice(quote.unit_price_stored)} · {sizeText(quote.remaining_quantum, perBondOf(quote))}
        </Text>
        {quote.is_mine ? (
          <Button size="compact-xs" variant="subtle" onClick={() => onOpen(quote)} style={FIXED}>
            Yours · View
          </Button>
        ) : canTrade && quote.status === 'open' ? (
          <Button
            size="compact-xs"
            variant="light"
            onClick={() => onOpen(quote)}
            aria-label={`Respond to the RFQ on ${quote.display_name}`}
            style={FIXED}
          >
            Respond
          </Button>
        ) : null}
      </Group>
    </div>
  );
}

const RESPONSE_STATUS = {
  accepted: { label: 'Accepted', color: 'teal' },
  rejected: { label: 'Rejected', color: 'gray' },
} as const;

/** One of the firm's RFQs: its terms and state, then each participant's latest response with Accept. */
function MyRfqRow({ rfq }: { rfq: MyRfq }) {
  const perBond = perBondOf(rfq);
  const open = rfq.status === 'open';
  return (
    <div className={classes.listItem} data-testid="my-rfq-item">
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <RfqHeading quote={rfq} />
        <Group gap={6} wrap="nowrap" style={FIXED}>
          <Badge size="xs" variant="default">
            {rfq.rfq_mode === 'ONE_TO_ONE' ? 'OTO' : 'OTM'}
          </Badge>
          {open ? (
            <Countdown until={rfq.expiry_date_stored} size="xs" />
          ) : (
            <Badge size="xs" variant="light" color={QUOTE_STATUS_LABELS[rfq.status].color}>
              {QUOTE_STATUS_LABELS[rfq.status].label}
            </Badge>
          )}
        </Group>
      </Group>
      <Text size="xs" c="dimmed" className={classes.mono} mt={2}>
        {formatYield(rfq.yield_stored)} · {formatPrice(rfq.unit_price_stored)} · {sizeText(rfq.quantum, perBond)}
        {rfq.exchange_ref ? ` · ${rfq.exchange_ref}` : ''}
      </Text>
      {rfq.responses.length === 0 ? (
        open ? (
          <Text size="xs" c="dimmed" mt={4}>
            Waiting for responses…
          </Text>
        ) : null
      ) : (
        <Stack gap={4} mt={6} data-testid="rfq-responses" aria-label={`Responses to the RFQ on ${rfq.display_name}`}>
          {rfq.responses.map((response, index) => (
            <ResponseRow key={response.negotiation_id} rfq={rfq} response={response} index={index} perBond={perBond} />
          ))}
        </Stack>
      )}
    </div>
  );
}

function ResponseRow({
  rfq,
  response,
  index,
  perBond,
}: {
  rfq: MyRfq;
  response: MyRfqResponse;
  index: number;
  perBond: number | undefined;
}) {
  const negotiate = useNegotiateQuote();
  const now = useNow();
  // A response whose validity ran out is no longer offered, without waiting for the next read.
  const lapsed = new Date(response.valid_until).getTime() <= now;
  // Anonymous RFQs name every participant alike: number them so the dealer can tell them apart.
  const who = rfq.rfq_anonymous ? `Response ${index + 1}` : response.participant;
  const terms = `${formatYield(response.yield_stored)} · ${formatPrice(response.unit_price_stored)}`;
  const ended = RESPONSE_STATUS[response.status as keyof typeof RESPONSE_STATUS];
  const accept = () =>
    negotiate.mutate(
      { quote_id: rfq.id, negotiation_id: response.negotiation_id, action: 'accept' },
      { onError: (error) => showToast({ severity: 'error', summary: 'Could not accept the response', detail: describeError(error) }) },
    );
  return (
    <div data-testid="rfq-response" style={{ borderTop: '1px dashed var(--mantine-color-default-border)', paddingTop: 4 }}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="xs" fw={600} truncate title={response.participant} miw={0}>
          {who}
        </Text>
        <Group gap={6} wrap="nowrap" style={FIXED}>
          {ended ? (
            <Badge size="xs" variant="light" color={ended.color}>
              {ended.label}
            </Badge>
          ) : response.can_accept && !lapsed ? (
            <>
              <Countdown until={response.valid_until} size="xs" />
              <Button
                size="compact-xs"
                color="teal"
                onClick={accept}
                loading={negotiate.isPending}
                aria-label={`Accept ${who} at ${formatYield(response.yield_stored)}`}
              >
                Accept
              </Button>
            </>
          ) : (
            <Badge size="xs" variant="light" color="gray">
              {response.last_by === 'quoter' ? 'Countered' : 'Lapsed'}
            </Badge>
          )}
        </Group>
      </Group>
      <Text size="xs" c="dimmed" className={classes.mono}>
        {terms} · {sizeText(response.quantum, perBond)}
      </Text>
    </div>
  );
}
