/**
 * Applies `ws/trade/d/` market events to the market's query keys (one socket per session, see
 * lib/live): quotes are patched in place, unknown ones refetched; negotiations, clusters and
 * deals update their keys (a deal event reloads the deals list); a public-run change refetches the
 * depth and instrument lists (aggregates cannot be patched row by row); a reconnect after being offline
 * refetches the runs, negotiations and deals. Refetches never abort a load already on its way
 * (refreshKey): events arrive while panels load.
 */
import {
  ClusterEventPayloadSchema,
  DealEventPayloadSchema,
  MARKET_TOPICS,
  NegotiationEventPayloadSchema,
  QuoteEventPayloadSchema,
  type Quote,
} from '@dart/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveEvents } from '../../../lib/live';
import { showToast } from '../../../lib/toast';
import { applyDealEvent, DEALS_KEY } from '../api/deals-store';
import { DEPTH_KEY } from '../api/get-depth';
import { QUOTE_KEY } from '../api/get-quote';
import { INSTRUMENTS_KEY } from '../api/list-instruments';
import { RFQ_QUOTES_KEY } from '../api/list-rfq-quotes';
import { CLUSTERS_KEY } from '../api/list-clusters';
import { PRIVATE_RUNS_KEY } from '../api/list-private-runs';
import { PUBLIC_RUNS_KEY } from '../api/list-public-runs';
import { applyNegotiationEvent, NEGOTIATIONS_KEY, type NegotiationRecord } from '../api/negotiations-store';
import { findBondName, patchQuoteInRuns } from '../utils/patch-runs';
import { refreshKey } from '../../../lib/refresh-key';
import { formatPrice, formatSize, formatYield } from '../utils/market-format';

export function useMarketLiveUpdates(myUserId: string | null): void {
  const queryClient = useQueryClient();

  useLiveEvents(
    (event) => {
      switch (event.topic) {
        case MARKET_TOPICS.publicRun:
        case MARKET_TOPICS.privateRun:
        case MARKET_TOPICS.openOrders: {
          const parsed = QuoteEventPayloadSchema.safeParse(event.payload);
          if (!parsed.success) return;
          const { quote, quote_id } = parsed.data;
          if (quote) queryClient.setQueryData<Quote>([...QUOTE_KEY, quote_id], (old) => (old ? { ...old, ...quote } : old));
          const patched = quote ? patchQuoteInRuns(queryClient, quote) : false;
          if (!patched || parsed.data.action === 'created')
            refreshKey(queryClient, event.topic === MARKET_TOPICS.privateRun ? PRIVATE_RUNS_KEY : PUBLIC_RUNS_KEY);
          if (event.topic === MARKET_TOPICS.publicRun) {
            refreshKey(queryClient, [...DEPTH_KEY, parsed.data.finstrument_id]);
            refreshKey(queryClient, INSTRUMENTS_KEY);
          }
          return;
        }
        case MARKET_TOPICS.inquiries:
          refreshKey(queryClient, RFQ_QUOTES_KEY);
          return;
        case MARKET_TOPICS.refreshRuns:
          refreshKey(queryClient, PUBLIC_RUNS_KEY);
          refreshKey(queryClient, DEPTH_KEY);
          refreshKey(queryClient, INSTRUMENTS_KEY);
          refreshKey(queryClient, PRIVATE_RUNS_KEY);
          return;
        case MARKET_TOPICS.rfqNegotiation: {
          const parsed = NegotiationEventPayloadSchema.safeParse(event.payload);
          if (!parsed.success) return;
          applyNegotiationEvent(queryClient, parsed.data, myUserId);
          const last = parsed.data.last;
          if (last.by_user_id !== myUserId && last.action === 'counter')
            showToast({
              severity: 'info',
              summary: 'New counter',
              detail: `${formatYield(last.yield_stored)} · ${formatPrice(last.unit_price_stored)} for ${formatSize(last.quantum)}`,
            });
          return;
        }
        case MARKET_TOPICS.cluster: {
          if (!ClusterEventPayloadSchema.safeParse(event.payload).success) return;
          refreshKey(queryClient, CLUSTERS_KEY);
          return;
        }
        case MARKET_TOPICS.considerationUpdate: {
          const parsed = DealEventPayloadSchema.safeParse(event.payload);
          if (!parsed.success) return;
          const deal = parsed.data;
          // The event names neither the bond nor the side: take them from a negotiation on a cached quote of that bond.
          const records = queryClient.getQueryData<NegotiationRecord[]>(NEGOTIATIONS_KEY) ?? [];
          let context: { display_name: string | null; side: 'buy' | 'sell' | null } = {
            display_name: findBondName(queryClient, deal.finstrument_id),
            side: null,
          };
          for (const record of records) {
            const quote = queryClient.getQueryData<Quote>([...QUOTE_KEY, record.quote_id]);
            if (quote?.finstrument_id !== deal.finstrument_id || record.status === 'rejected') continue;
            context = {
              display_name: quote.display_name,
              side: (record.role === 'quoter') === (quote.quote_type === 'BID') ? 'buy' : 'sell',
            };
            break;
          }
          applyDealEvent(queryClient, deal, context);
          showToast({
            severity: 'success',
            summary: 'Deal done',
            detail: `${formatSize(deal.quantum)} at ${formatPrice(deal.price)} (${formatYield(deal.yield)})`,
          });
          // The deals list brings it in full (bond, side, counterparty) into the same key.
          refreshKey(queryClient, DEALS_KEY);
          return;
        }
        default:
          return;
      }
    },
    () => {
      refreshKey(queryClient, ['market']);
      // Negotiations and deals are reloaded too (a load merges into what the session holds).
      refreshKey(queryClient, NEGOTIATIONS_KEY);
      refreshKey(queryClient, DEALS_KEY);
    },
  );
}
