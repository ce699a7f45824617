/**
 * `POST api/eoi/upload/`: the bulk quote upload. The file is read and every row checked (quote-upload.ts,
 * then pricing) before anything is stored; the quotes are then stored, matched and announced in one
 * transaction, charged against the daily quote quotas as a whole.
 */
import { QUOTE_UPLOAD_MESSAGES, type Quote, type QuoteCreate, type QuoteUploadResult, type UploadRowError } from '@dart/contracts';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import type { Principal } from '../auth/principal';
import type { MarketContext, PricedQuote } from './market.context';
import type { MatchQuote } from './market.quotes';
import { createMarketRepository } from './market.repository';
import { perBondOf } from './market.sizes';
import { quoteView } from './market.views';
import { columnOfField, parseUploadRow, readUploadTable } from './quote-upload';

/** A row the upload refused, carried to the HTTP edge (which answers 400 with every row error). */
export class UploadRowsError extends Error {
  constructor(readonly rowErrors: UploadRowError[]) {
    super(QUOTE_UPLOAD_MESSAGES.rowsInvalid(new Set(rowErrors.map((e) => e.row)).size));
    this.name = 'UploadRowsError';
  }
}

export function createMarketUpload(ctx: MarketContext, match: MatchQuote) {
  const { deps, repo, assertTradingOpen, change, announce, viewOf, priceQuote } = ctx;

  return {
    /**
     * `POST api/eoi/upload/`: every row is checked like a single create (schema, bond, pricing) before
     * anything is stored; one bad row → UploadRowsError with every row error and nothing imported.
     * The quotes are then stored, matched and announced in one transaction (public runs, source UPLOAD).
     */
    async uploadQuotes(p: Principal, file: Buffer, audit: AuditContext): Promise<QuoteUploadResult> {
      assertTradingOpen();
      const rows = await readUploadTable(file);
      const isins = rows
        .map((r) =>
          String(r.cells.isin ?? '')
            .trim()
            .toUpperCase(),
        )
        .filter(Boolean);
      const bonds = await repo.bondsByIsin(isins);
      const errors: UploadRowError[] = [];
      const ready: Array<{ input: QuoteCreate; priced: PricedQuote; expiresAt: Date }> = [];
      const now = deps.now();
      for (const row of rows) {
        const bond = bonds.get(
          String(row.cells.isin ?? '')
            .trim()
            .toUpperCase(),
        );
        const parsed = parseUploadRow(row, bond?.id, bond ? perBondOf(bond) : undefined);
        if (!parsed.ok) {
          errors.push(...parsed.errors);
          continue;
        }
        const input = parsed.input;
        const fixed = input.fixed_field === 'price' ? 'price' : 'yield';
        try {
          const priced = await priceQuote(
            input.finstrument_id,
            fixed === 'price'
              ? { price: input.unit_price_stored, settlement: input.settlement, settlementDelta: input.settlement_delta }
              : { yield: input.yield_stored, settlement: input.settlement, settlementDelta: input.settlement_delta },
          );
          ready.push({ input, priced, expiresAt: new Date(now.getTime() + input.validity * 60_000) });
        } catch (error) {
          if (!(error instanceof AppError) || error.status >= 500) throw error;
          const fields = Object.entries(error.fieldErrors ?? {});
          if (fields.length === 0) errors.push({ row: row.row, field: fixed, message: error.message });
          for (const [field, messages] of fields)
            for (const message of messages) {
              const column = columnOfField(field);
              errors.push({ row: row.row, field: column === 'row' ? fixed : column, message });
            }
        }
      }
      if (errors.length > 0) throw new UploadRowsError(errors);

      const quotes = await change(async (tx, emit) => {
        const r = createMarketRepository(tx);
        // The whole file counts against the daily quote quotas at once: it fits, or nothing is imported.
        await deps.quotas.charge(tx, [
          { action: 'quote.create', scope: 'user', subjectId: p.userId, amount: ready.length },
          { action: 'quote.create', scope: 'client', subjectId: p.clientId, amount: ready.length },
        ]);
        // Books locked in one order, so two uploads on overlapping bonds never deadlock.
        for (const id of [...new Set(ready.map((q) => q.input.finstrument_id))].sort((a, b) => a - b)) await r.lockBook(id);
        const views: Quote[] = [];
        for (const { input, priced, expiresAt } of ready) {
          const inserted = await r.insertQuote({
            clientId: p.clientId,
            userId: p.userId,
            userAccountId: p.userAccountId,
            finstrumentId: input.finstrument_id,
            quoteType: input.quote_type,
            quantum: input.quantum,
            remainingQuantum: input.quantum,
            price: priced.price,
            yieldFraction: priced.yield,
            fixedField: input.fixed_field,
            yieldType: input.yield_type,
            priceOverridden: false,
            settlementDate: priced.settlementDate,
            settlementDelta: priced.settlementDelta,
            validityMinutes: input.validity,
            expiresAt,
            mandateExpiresAt: null,
            source: 'UPLOAD',
            state: input.state,
            isBest: false,
            sendToRfq: false,
            whatsappConsent: false,
            replaces: null,
            respondTo: null,
            recipients: null,
            brokerId: null,
            clearingCorporation: null,
            rfqMode: null,
            exchange: null,
            exchangeRef: null,
            rfqAnonymous: false,
            otoParticipantDetails: null,
            originTrade: null,
            endClientId: input.end_client_id ?? null,
          });
          await writeAudit(tx, audit, {
            action: 'quote.created',
            entity: 'quote',
            entityId: inserted.id,
            after: {
              finstrument_id: input.finstrument_id,
              quote_type: input.quote_type,
              quantum: input.quantum,
              price: priced.price,
              yield: priced.yield,
              settlement_date: priced.settlementDate,
              private: false,
              source: 'UPLOAD',
            },
          });
          await match(tx, inserted, audit, emit);
          const view = await viewOf(tx, inserted.id);
          await announce(tx, emit, view, 'created');
          views.push(quoteView(view, p));
        }
        await writeAudit(tx, audit, { action: 'quote.uploaded', entity: 'quote', entityId: null, after: { count: views.length } });
        return views;
      });
      return {
        created: quotes.length,
        bid_count: quotes.filter((q) => q.quote_type === 'BID').length,
        ask_count: quotes.filter((q) => q.quote_type === 'ASK').length,
        quotes,
      };
    },
  };
}
