import type { Quote } from '@dart/contracts';
import { useDebouncedValue } from '@mantine/hooks';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { describeError } from '../../../lib/errors';
import { LiveStatusBadge } from '../../../lib/live';
import { canTrade as canTradeFor, useSession } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { useCloseQuote } from '../api/close-quote';
import { useDeals } from '../api/deals-store';
import { usePublicRuns } from '../api/list-public-runs';
import { useTradeParticipants } from '../api/search-trade-participants';
import { useMarketLiveUpdates } from '../hooks/use-market-live-updates';
import { ClustersPanel } from './clusters-panel';
import { EditQuoteDialog } from './edit-quote-dialog';
import { MarketDepthPanel, type DepthBond } from './market-depth-panel';
import type { MarketSlots } from './market-slots';
import { NegotiationDialog, type NegotiationTarget } from './negotiation-dialog';
import { NegotiationsPanel } from './negotiations-panel';
import { PrivateRunsPanel } from './private-runs-panel';
import { PublicRunsPanel } from './public-runs-panel';
import { QuoteTicket } from './quote-ticket';
import { RfqPanel } from './rfq-panel';
import { UploadQuotesDialog } from './upload-quotes-dialog';

/** The market's panels of the /dart dock, by the workspace's panel ids. */
export interface MarketPanels {
  'quote-ticket': ReactNode;
  'public-runs': ReactNode;
  'private-runs': ReactNode;
  'rfq-quotes': ReactNode;
  'market-depth': ReactNode;
  negotiations: ReactNode;
  clusters: ReactNode;
}

/** A firm the user trades with, for the workspace's Build Network panel. */
export interface MarketNetworkFirm {
  id: string;
  name: string;
  people: string[];
  deals: number;
}

/** The counterparties the market knows: the firms of the user's deals and Dart's trading firms, searchable. */
export interface MarketNetwork {
  firms: MarketNetworkFirm[];
  search: string;
  onSearchChange: (search: string) => void;
  loading: boolean;
}

export interface MarketWorkspaceProps extends MarketSlots {
  /** Lays the market's panels out (the route hands them to the workspace's dock). */
  children: (parts: { panels: MarketPanels; network: MarketNetwork }) => ReactNode;
}

/**
 * The market part of the /dart workspace: quote ticket, public runs blotter, private runs, RFQ
 * quotes, negotiations, matches and deals and market depth (Ticketing is the tickets feature's), all kept current by the
 * session's live socket. It renders its dialogs and gives its panels to `children` to lay out.
 */
export function MarketWorkspace({ children, ...slots }: MarketWorkspaceProps) {
  const { user } = useSession();
  // View-only users (viewer, compliance) and users without the trading permission get no trading control.
  const canTrade = canTradeFor(user);
  useMarketLiveUpdates(user?.user_info.id ?? null);
  const [target, setTarget] = useState<NegotiationTarget | null>(null);
  const [editing, setEditing] = useState<Quote | null>(null);
  const [uploading, setUploading] = useState(false);
  const [depthBond, setDepthBond] = useState<DepthBond | null>(null);
  const closeQuote = useCloseQuote();
  // The first page is shared with the blotter (same query key): only its restriction text is read here.
  const restriction = usePublicRuns({ page: 1, page_size: 100, search: '', my_quotes: false }).data?.restriction_text ?? null;
  const network = useMarketNetwork();

  const open = useCallback((quote: Quote) => setTarget({ quoteId: quote.id, quote }), []);
  const pick = useCallback(
    (quote: Quote) =>
      setDepthBond((old) =>
        old?.id === quote.finstrument_id ? old : { id: quote.finstrument_id, name: quote.display_name, isin: quote.isin },
      ),
    [],
  );
  const close = useCallback(
    (quote: Quote) =>
      closeQuote.mutate(quote.id, {
        onSuccess: () => showToast({ severity: 'info', summary: 'Quote closed', detail: quote.display_name }),
        onError: (error) => showToast({ severity: 'error', summary: 'Could not close the quote', detail: describeError(error) }),
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [closeQuote.mutate],
  );

  const panels: MarketPanels = {
    'quote-ticket': <QuoteTicket canTrade={canTrade} restrictionText={restriction} {...slots} />,
    'public-runs': (
      <PublicRunsPanel
        canTrade={canTrade}
        onOpen={open}
        onClose={close}
        onEdit={setEditing}
        onPick={pick}
        onUpload={() => setUploading(true)}
        status={<LiveStatusBadge />}
      />
    ),
    'market-depth': (
      <MarketDepthPanel
        selected={depthBond}
        onSelect={setDepthBond}
        {...(slots.renderUpgrade ? { renderUpgrade: slots.renderUpgrade } : {})}
      />
    ),
    'private-runs': <PrivateRunsPanel canTrade={canTrade} onOpen={open} onClose={close} />,
    negotiations: <NegotiationsPanel onOpen={setTarget} />,
    clusters: <ClustersPanel canTrade={canTrade} />,
    'rfq-quotes': (
      <RfqPanel canTrade={canTrade} onOpen={open} renderBondSearch={slots.renderBondSearch} renderPricing={slots.renderPricing} />
    ),
  };

  return (
    <>
      {children({ panels, network })}
      <EditQuoteDialog quote={editing} onClose={() => setEditing(null)} />
      <UploadQuotesDialog opened={uploading} onClose={() => setUploading(false)} />
      <NegotiationDialog target={target} onClose={() => setTarget(null)} canTrade={canTrade} renderPricing={slots.renderPricing} />
    </>
  );
}

/** Firms of the user's deals (most deals first) and of the participant search, merged by firm name. */
function useMarketNetwork(): MarketNetwork {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const participants = useTradeParticipants({ search: debounced });
  const deals = useDeals();
  const firms = useMemo(() => {
    const byName = new Map<string, MarketNetworkFirm>();
    const needle = debounced.toLowerCase();
    for (const deal of deals) {
      if (!deal.counterparty || (needle && !deal.counterparty.toLowerCase().includes(needle))) continue;
      const firm = byName.get(deal.counterparty) ?? { id: `deal:${deal.counterparty}`, name: deal.counterparty, people: [], deals: 0 };
      firm.deals += 1;
      byName.set(deal.counterparty, firm);
    }
    for (const row of participants.results) {
      const firm = byName.get(row.name) ?? { id: row.client_id, name: row.name, people: [], deals: 0 };
      if (row.user_name && !firm.people.includes(row.user_name)) firm.people.push(row.user_name);
      byName.set(row.name, firm);
    }
    return [...byName.values()].sort((a, b) => b.deals - a.deals || a.name.localeCompare(b.name));
  }, [deals, participants.results, debounced]);
  return { firms, search, onSearchChange: setSearch, loading: participants.isFetching };
}
