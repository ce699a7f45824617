import type { Quote } from '@dart/contracts';
import { useCallback, useState } from 'react';
import { describeError } from '../../../lib/errors';
import { LiveStatusBadge } from '../../../lib/live';
import { canTrade as canTradeFor, useSession } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { useCloseQuote } from '../api/close-quote';
import { usePublicRuns } from '../api/list-public-runs';
import { useMarketLiveUpdates } from '../hooks/use-market-live-updates';
import { ClustersPanel } from './clusters-panel';
import { EditQuoteDialog } from './edit-quote-dialog';
import { MarketDepthPanel, type DepthBond } from './market-depth-panel';
import type { MarketSlots } from './market-slots';
import classes from './market.module.css';
import { NegotiationDialog, type NegotiationTarget } from './negotiation-dialog';
import { NegotiationsPanel } from './negotiations-panel';
import { PrivateRunsPanel } from './private-runs-panel';
import { PublicRunsPanel } from './public-runs-panel';
import { QuoteTicket } from './quote-ticket';
import { RfqPanel } from './rfq-panel';
import { UploadQuotesDialog } from './upload-quotes-dialog';

/**
 * The market part of the /dart workspace: quote ticket, public runs blotter, private runs,
 * negotiations, matches and deals, all kept current by the session's live socket.
 */
export function MarketWorkspace(slots: MarketSlots) {
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

  return (
    <>
      <div className={classes.layout}>
        <QuoteTicket canTrade={canTrade} restrictionText={restriction} {...slots} />
        <PublicRunsPanel
          canTrade={canTrade}
          onOpen={open}
          onClose={close}
          onEdit={setEditing}
          onPick={pick}
          onUpload={() => setUploading(true)}
          status={<LiveStatusBadge />}
        />
      </div>
      <MarketDepthPanel
        selected={depthBond}
        onSelect={setDepthBond}
        {...(slots.renderUpgrade ? { renderUpgrade: slots.renderUpgrade } : {})}
      />
      <div className={classes.side}>
        <PrivateRunsPanel canTrade={canTrade} onOpen={open} onClose={close} />
        <NegotiationsPanel onOpen={setTarget} />
        <ClustersPanel canTrade={canTrade} />
        <RfqPanel canTrade={canTrade} onOpen={open} renderBondSearch={slots.renderBondSearch} renderPricing={slots.renderPricing} />
      </div>
      <EditQuoteDialog quote={editing} onClose={() => setEditing(null)} />
      <UploadQuotesDialog opened={uploading} onClose={() => setUploading(false)} />
      <NegotiationDialog target={target} onClose={() => setTarget(null)} canTrade={canTrade} renderPricing={slots.renderPricing} />
    </>
  );
}
