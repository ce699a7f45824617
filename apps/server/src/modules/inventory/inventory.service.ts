/**
 * The book's calls (README "Calls"): list and value, upload, external trades, valuation cost, the daily
 * confirmation, offers and the cash-flow calendar. Every write is one transaction with its audit row (and the
 * idempotency fence); every read and write is scoped to the caller's firm.
 */
import {
  formatFaceValue,
  INVENTORY_ACCOUNT_MAX_LENGTH,
  INVENTORY_DEFAULT_ACCOUNT,
  INVENTORY_MESSAGES,
  QuoteAddSchema,
  quantumError,
  type AccessPolicy,
  type CashflowCalendar,
  type EditValuationCost,
  type ExternalTrade,
  type InventoryListQuery,
  type InventoryMovement,
  type InventoryOffer,
  type InventoryUploadResult,
  type Position,
  type Quote,
} from '@dart/contracts';
import { addDays, getCashflowSchedule } from '@dart/bond-math';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { inventoryPositions } from '../../db/schema';
import { writeAudit, type AuditContext } from '../../lib/audit';
import { AppError, fieldError } from '../../lib/errors';
import { fenceIdempotency } from '../../plugins/idempotency';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';
import { perBondOf, type MarketService } from '../market';
import type { OrderRow } from '../orders';
import { createInventoryRepository, type BookBond, type PositionRow, type ReferenceRow } from './inventory.repository';
import { createFigureStore } from './inventory.figures';
import { InventoryRowsError, parseHoldingRow, readHoldings, type RowError } from './inventory.upload';
import { createNodeBonds } from './inventory.bonds';
import { createBookKeeper } from './inventory.book';
import {
  createBondCache,
  createBondValuer,
  formatDate,
  inventoryAnswer,
  rupees,
  valuationMethod,
  valuationDates,
  valuePosition,
} from './inventory.valuation';

/** Reading the book: the inventory permission on a Premium firm (BASIC → 402); view-only roles included. */
export const INVENTORY_READ: AccessPolicy = { kind: 'authenticated', permissions: ['inventory.has_inventory_access'], premium: true };
/** Changing the book: as reading, never a view-only role. */
export const INVENTORY_WRITE: AccessPolicy = { ...INVENTORY_READ, write: true };
/** Offering a holding also needs trade access (it becomes a quote). */
export const INVENTORY_OFFER: AccessPolicy = {
  kind: 'authenticated',
  permissions: ['inventory.has_inventory_access', 'client.can_trade'],
  premium: true,
  write: true,
};

const UPSERT_CHUNK = 500;
/** Book cost in paise of `face` rupees at `pricePer100`: face × price / 100 rupees. */
const costOf = (face: number, pricePer100: number) => Math.round(face * pricePer100);
/** The settlement job acts as the system (no user). */
const SETTLEMENT_AUDIT: AuditContext = { actorEmail: 'system:post-trade' };
/** What the settled-order hook reads of an order (the orders module's row). */
export type SettledOrder = Pick<
  OrderRow,
  'id' | 'kind' | 'clientId' | 'userId' | 'finstrumentId' | 'quantum' | 'price' | 'tradeDate' | 'custodianId'
>;

/** A custodian's name as an account (upper-cased, only the account's characters, ≤ 60); MAIN when none. */
export function accountOfCustodian(name: string | undefined): string {
  const account = (name ?? '')
    .toUpperCase()
    .replace(/[^A-Z0-9 _\-/.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, INVENTORY_ACCOUNT_MAX_LENGTH)
    .trim();
  return account || INVENTORY_DEFAULT_ACCOUNT;
}
const istToday = (now: Date) => new Date(now.getTime() + 330 * 60_000).toISOString().slice(0, 10);

/** Firms' valued books kept per node; the least recently read goes first. */
const BOOK_CACHE_LIMIT = 64;
/** Serialised pages kept per view of a book (pages × page sizes read since its last change). */
const ANSWERS_PER_VIEW = 32;

export function createInventoryService(
  deps: AppDeps,
  market: Pick<MarketService, 'createQuote'>,
  options: { onStoreError?: (error: unknown) => void } = {},
) {
  const { database } = deps;
  const repo = createInventoryRepository(database.db);

  async function write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return database.db.transaction(async (tx) => {
      const value = await fn(tx);
      await fenceIdempotency(tx);
      return value;
    });
  }

  // The valuing code's version (stored figures are keyed by it): its ~60 canary prices now, not in a first read.
  valuationMethod();
  /** Each bond valued once per node for its terms, date and reference (valuation README "Speed"). */
  const valueBondOf = createBondValuer();

  /** Values holdings read with their reference prices (`repo.book`); bonds' figures from the node's cache. */
  function valueRows(rows: Array<{ position: PositionRow; bond: BookBond; ref: ReferenceRow | null }>) {
    const dates = valuationDates(deps.now());
    return { dates, valued: rows.map((r) => valuePosition(r.position, r.bond, valueBondOf(r.bond, r.ref ?? undefined, dates))) };
  }

  /** Values one holding (after a change): its bond's reference price in one more query. */
  async function positionView(position: PositionRow): Promise<Position> {
    const bond = (await repo.bond(position.finstrumentId))!;
    const ref = (await repo.bestReferences([bond.id])).get(bond.id) ?? null;
    return valueRows([{ position, bond, ref }]).valued[0]!.view;
  }

  /** Bonds' figures stored for every node (migration 0032): what this node prices, and the elected node's pass. */
  const figures = createFigureStore(deps);

  /**
   * Each firm's valued book on this node, brought up to date by deltas (README "Speed"), its bonds' figures
   * shared with the node's other books (`nodeBonds`, `inventory.bonds.ts`); the bonds it prices while valuing a
   * book from the start are stored for the next node (not awaited: the reader does not wait).
   */
  const nodeBonds = createNodeBonds({ repo });
  const keeper = createBookKeeper({
    repo,
    bonds: nodeBonds,
    now: deps.now,
    valueBondOf,
    limit: BOOK_CACHE_LIMIT,
    store: (rows, settlement, inputsVersion) => {
      figures.store(rows, settlement, inputsVersion).catch((error: unknown) => options.onStoreError?.(error));
    },
  });

  async function visiblePosition(clientId: string, id: string): Promise<PositionRow> {
    const position = await repo.position(clientId, id);
    if (!position || position.faceValue <= 0) throw new AppError('NOT_FOUND', INVENTORY_MESSAGES.positionNotFound);
    return position;
  }

  const snapshotOf = (p: PositionRow) => ({
    face_value: p.faceValue,
    cost_paise: p.costPaise,
    realised_pnl_paise: p.realisedPnlPaise,
    as_of: p.asOf,
  });

  /**
   * Moves a holding by one trade at weighted-average cost (README "Cost method"): a buy adds its cost; a sell
   * takes out the average cost of what it sells and realises the difference. Refuses to go below zero.
   */
  async function move(
    tx: Tx,
    input: {
      clientId: string;
      finstrumentId: number;
      account: string;
      side: 'BUY' | 'SELL';
      faceValue: number;
      price: number;
      tradeDate: string;
      source: 'EXTERNAL' | 'ORDER';
      orderId?: string;
      counterparty?: string | null;
      reference?: string | null;
      userId?: string | null;
    },
    audit: AuditContext,
  ) {
    const r = createInventoryRepository(tx);
    const position = await r.lockOrCreate(input.clientId, input.finstrumentId, input.account, input.tradeDate);
    let face = position.faceValue;
    let cost = position.costPaise;
    let realised = 0;
    if (input.side === 'BUY') {
      face += input.faceValue;
      cost += costOf(input.faceValue, input.price);
    } else {
      if (input.faceValue > face) throw fieldError('face_value', INVENTORY_MESSAGES.negativeHolding(formatFaceValue(face)));
      const costOut = input.faceValue === face ? cost : Math.round((cost * input.faceValue) / face);
      realised = costOf(input.faceValue, input.price) - costOut;
      face -= input.faceValue;
      cost -= costOut;
    }
    const asOf = input.tradeDate > position.asOf ? input.tradeDate : position.asOf;
    const updated = await r.updatePosition(position.id, {
      faceValue: face,
      costPaise: cost,
      realisedPnlPaise: position.realisedPnlPaise + realised,
      asOf,
      version: await r.bumpVersion(input.clientId),
    });
    const movement = await r.insertMovement({
      clientId: input.clientId,
      positionId: position.id,
      source: input.source,
      side: input.side,
      faceValue: input.faceValue,
      price: input.price,
      tradeDate: input.tradeDate,
      realisedPnlPaise: realised,
      orderId: input.orderId ?? null,
      counterparty: input.counterparty ?? null,
      reference: input.reference ?? null,
      userId: input.userId ?? null,
    });
    const entry = {
      entity: 'inventory_position',
      entityId: position.id,
      before: snapshotOf(position),
      after: {
        ...snapshotOf(updated),
        movement_id: movement.id,
        side: input.side,
        face_value_traded: input.faceValue,
        price: input.price,
        trade_date: input.tradeDate,
        realised_pnl_paise: realised,
        ...(input.orderId ? { order_id: input.orderId } : {}),
      },
    };
    if (input.source === 'ORDER') await writeAudit(tx, audit, { action: 'inventory.order_settled', ...entry });
    else await writeAudit(tx, audit, { action: 'inventory.external_trade', ...entry });
    return { updated, movement };
  }

  return {
    /**
     * `GET api/inventory/` as its JSON answer (UTF-8): the firm's book valued, a page of holdings, totals and
     * breakdowns over all of them. A page is cut from the node's book (README "Speed") and its answer, checked
     * against the contract and encoded once, is kept with the book's view until the book or its valuation changes.
     */
    async listJson(p: Principal, query: InventoryListQuery): Promise<Buffer> {
      const { book, ...state } = await repo.bookState(p.clientId);
      const view = await keeper.view(p.clientId, query.account, state);
      const today = istToday(deps.now());
      const bookDate = book?.bookDate ?? today;
      const confirmedAt = book?.confirmedAt?.toISOString() ?? null;
      const key = `${query.page}|${query.page_size}|${bookDate}|${today}|${confirmedAt}`;
      let answer = view.answers.get(key);
      if (answer === undefined) {
        answer = inventoryAnswer(view, { page: query.page, pageSize: query.page_size, bookDate, today, confirmedAt });
        if (view.answers.size >= ANSWERS_PER_VIEW) view.answers.clear();
        view.answers.set(key, answer);
      }
      return answer;
    },

    /**
     * `POST api/inventory/upload/`: every row checked before anything is stored; one bad row → every row error
     * and nothing imported. Each row sets its (ISIN, account) holding to its face value at its valuation cost.
     */
    async upload(p: Principal, file: Buffer, audit: AuditContext): Promise<InventoryUploadResult> {
      const rows = await readHoldings(file);
      const today = istToday(deps.now());
      const bonds = await repo.bondsByIsin(
        rows
          .map((r) =>
            String(r.cells.isin ?? '')
              .trim()
              .toUpperCase(),
          )
          .filter(Boolean),
      );
      const errors: RowError[] = [];
      const seen = new Map<string, number>();
      const ready: Array<{ finstrumentId: number; account: string; faceValue: number; costPaise: number; asOf: string }> = [];
      for (const row of rows) {
        const bond = bonds.get(
          String(row.cells.isin ?? '')
            .trim()
            .toUpperCase(),
        );
        const parsed = parseHoldingRow(row, bond ? perBondOf(bond) : undefined, today);
        if (!parsed.ok) {
          errors.push(...parsed.errors);
          continue;
        }
        const h = parsed.holding;
        const key = `${h.isin}\u0000${h.account}`;
        if (seen.has(key)) {
          errors.push({ row: row.row, field: 'isin', message: INVENTORY_MESSAGES.duplicateRow });
          continue;
        }
        seen.set(key, row.row);
        ready.push({
          finstrumentId: bond!.id,
          account: h.account,
          faceValue: h.face_value,
          costPaise: costOf(h.face_value, h.valuation_cost),
          asOf: h.date ?? today,
        });
      }
      if (errors.length > 0) throw new InventoryRowsError(errors);

      const answer = await write(async (tx) => {
        const r = createInventoryRepository(tx);
        await r.lockBook(p.clientId, today);
        const before = new Map((await r.holdings(p.clientId)).map((h) => [`${h.finstrumentId}\u0000${h.account}`, h]));
        const version = await r.bumpVersion(p.clientId);
        for (let i = 0; i < ready.length; i += UPSERT_CHUNK) {
          await tx
            .insert(inventoryPositions)
            .values(ready.slice(i, i + UPSERT_CHUNK).map((h) => ({ clientId: p.clientId, ...h, version })))
            .onConflictDoUpdate({
              target: [inventoryPositions.clientId, inventoryPositions.finstrumentId, inventoryPositions.account],
              set: {
                faceValue: sql`excluded.face_value`,
                costPaise: sql`excluded.cost_paise`,
                asOf: sql`excluded.as_of`,
                version: sql`excluded.version`,
                updatedAt: sql`now()`,
              },
            });
        }
        const updated = ready.filter((h) => before.has(`${h.finstrumentId}\u0000${h.account}`)).length;
        await writeAudit(tx, audit, {
          action: 'inventory.uploaded',
          entity: 'inventory_book',
          entityId: p.clientId,
          before: {
            holdings: ready.flatMap((h) => {
              const b = before.get(`${h.finstrumentId}\u0000${h.account}`);
              return b ? [{ finstrument_id: h.finstrumentId, account: h.account, face_value: b.faceValue, cost_paise: b.costPaise }] : [];
            }),
          },
          after: {
            rows: ready.length,
            holdings: ready.map((h) => ({
              finstrument_id: h.finstrumentId,
              account: h.account,
              face_value: h.faceValue,
              cost_paise: h.costPaise,
            })),
          },
        });
        return { imported: ready.length, created: ready.length - updated, updated, book_date: (await r.bookDate(p.clientId))!.bookDate };
      });
      // A book uploaded is a book about to be read: its bonds that no node has figures for (none held before, or
      // not since the last valuation date) are priced and stored before the answer, so the first valuation of it,
      // on any node, reads figures rather than pricing thousands of bonds (README "Speed" 2). The holdings are
      // committed either way: a failed store only leaves the pricing to that first valuation.
      await figures.storeHeld([...new Set(ready.map((h) => h.finstrumentId))]).catch((error: unknown) => options.onStoreError?.(error));
      return answer;
    },

    /** `POST api/inventory/external-trade/`: a trade done outside Dart moves the holding (audited). */
    async externalTrade(p: Principal, input: ExternalTrade, audit: AuditContext): Promise<InventoryMovement> {
      const today = istToday(deps.now());
      if (input.trade_date > today) throw fieldError('trade_date', INVENTORY_MESSAGES.dateInFuture);
      const bond = (await repo.bondsByIsin([input.isin])).get(input.isin);
      if (!bond) throw fieldError('isin', INVENTORY_MESSAGES.bondNotFound);
      const sizeError = quantumError(input.face_value, perBondOf(bond));
      if (sizeError) throw fieldError('face_value', sizeError);
      const { updated, movement } = await write(async (tx) => {
        await createInventoryRepository(tx).lockBook(p.clientId, today);
        return move(
          tx,
          {
            clientId: p.clientId,
            finstrumentId: bond.id,
            account: input.account,
            side: input.side,
            faceValue: input.face_value,
            price: input.price,
            tradeDate: input.trade_date,
            source: 'EXTERNAL',
            counterparty: input.counterparty ?? null,
            reference: input.reference ?? null,
            userId: p.userId,
          },
          audit,
        );
      });
      return {
        id: movement.id,
        position: await positionView(updated),
        side: input.side,
        face_value: movement.faceValue,
        price: movement.price,
        trade_date: movement.tradeDate,
        realised_pnl: rupees(movement.realisedPnlPaise),
        source: movement.source,
      };
    },

    /** `PUT /api/inventory/edit-valuation-cost/`: the holding's cost per ₹100 (its unrealised P&L moves with it). */
    async editValuationCost(p: Principal, input: EditValuationCost, audit: AuditContext): Promise<Position> {
      const updated = await write(async (tx) => {
        const r = createInventoryRepository(tx);
        // The book row first, as every write of the book takes it (one lock order: book, holdings, version).
        await r.lockBook(p.clientId, istToday(deps.now()));
        const position = await r.position(p.clientId, input.position_id, true);
        if (!position || position.faceValue <= 0) throw new AppError('NOT_FOUND', INVENTORY_MESSAGES.positionNotFound);
        const costPaise = costOf(position.faceValue, input.valuation_cost);
        if (costPaise === position.costPaise) throw new AppError('CONFLICT', INVENTORY_MESSAGES.nothingToChange);
        const next = await r.updatePosition(position.id, { costPaise, version: await r.bumpVersion(p.clientId) });
        await writeAudit(tx, audit, {
          action: 'inventory.valuation_cost_edited',
          entity: 'inventory_position',
          entityId: position.id,
          before: { cost_paise: position.costPaise, average_cost: position.costPaise / position.faceValue },
          after: { cost_paise: costPaise, average_cost: input.valuation_cost },
        });
        return next;
      });
      return positionView(updated);
    },

    /**
     * `PUT api/inventory/confirm-previous/`: the reviewer confirms the book of `book_date` (the book's current
     * date, before today) and carries it forward to today; the holdings reviewed are kept in the audit row.
     */
    async confirmPrevious(p: Principal, input: { book_date: string }, audit: AuditContext) {
      const today = istToday(deps.now());
      return write(async (tx) => {
        const r = createInventoryRepository(tx);
        const book = await r.lockBook(p.clientId, today);
        if (book.bookDate >= today) throw new AppError('CONFLICT', INVENTORY_MESSAGES.bookAlreadyConfirmed);
        if (book.bookDate !== input.book_date) throw fieldError('book_date', INVENTORY_MESSAGES.bookDateStale);
        const holdings = await r.holdings(p.clientId);
        const confirmedAt = deps.now();
        await r.setBook(p.clientId, { bookDate: today, confirmedAt, confirmedBy: p.userId });
        await r.carryForward(p.clientId, today, await r.bumpVersion(p.clientId));
        await writeAudit(tx, audit, {
          action: 'inventory.book_confirmed',
          entity: 'inventory_book',
          entityId: p.clientId,
          before: {
            book_date: book.bookDate,
            holdings: holdings.map((h) => ({ id: h.id, finstrument_id: h.finstrumentId, account: h.account, ...snapshotOf(h) })),
          },
          after: { book_date: today },
        });
        return { previous_book_date: book.bookDate, book_date: today, positions: holdings.length, confirmed_at: confirmedAt.toISOString() };
      });
    },

    /**
     * `POST /api/inventory/offer/`: the holding as an ASK through the market's own createQuote — a public run,
     * a private run to `counterparties`, or an exchange RFQ — sized to the holding (or less) at the valuation
     * yield unless a price or yield is given. More than is held is refused.
     */
    async offer(p: Principal, input: InventoryOffer, audit: AuditContext): Promise<Quote> {
      const position = await visiblePosition(p.clientId, input.position_id);
      const size = input.face_value ?? position.faceValue;
      if (size > position.faceValue) throw fieldError('face_value', INVENTORY_MESSAGES.offerTooLarge(formatFaceValue(position.faceValue)));
      let pricing: Record<string, unknown>;
      if (input.price !== undefined) pricing = { fixed_field: 'price', unit_price_stored: input.price };
      else if (input.yield !== undefined) pricing = { fixed_field: 'yield', yield_stored: input.yield };
      else {
        const view = await positionView(position);
        if (view.valuation.bond_yield === null) throw new AppError('BAD_REQUEST', INVENTORY_MESSAGES.notPriceable);
        pricing = { fixed_field: 'yield', yield_stored: view.valuation.bond_yield };
      }
      const raw = QuoteAddSchema.parse({
        finstrument_id: position.finstrumentId,
        quote_type: 'ASK',
        quantum: size,
        ...pricing,
        ...(input.validity ? { validity: input.validity } : {}),
        ...(input.kind === 'private_run' ? { counterparties: input.counterparties } : {}),
        ...(input.kind === 'exchange_rfq'
          ? { send_to_rfq: true, clearing_corporation: input.clearing_corporation, rfq_mode: 'ONE_TO_MANY' }
          : {}),
      });
      return market.createQuote(p, raw, audit);
    },

    /** `GET api/inventory/cashflows/`: coupons and redemptions of the book paid in the next `days` days. */
    async cashflows(p: Principal, days: number): Promise<CashflowCalendar> {
      const { tradeDate } = valuationDates(deps.now());
      const to = addDays(tradeDate, days);
      const bondOf = createBondCache(tradeDate);
      const results: CashflowCalendar['results'] = [];
      for (const { position, bond } of await repo.book(p.clientId)) {
        const built = bondOf(bond);
        if (!built.ok) continue;
        const units = position.faceValue / perBondOf(bond);
        for (const flow of getCashflowSchedule(built.bond, tradeDate, units)) {
          if (flow.paymentDate < tradeDate || flow.paymentDate > to) continue;
          results.push({
            payment_date: formatDate(flow.paymentDate),
            isin: bond.isin,
            display_name: bond.displayName,
            account: position.account,
            face_value: position.faceValue,
            interest: rupees(flow.interestPaise),
            principal: rupees(flow.principalPaise),
            total: rupees(flow.totalPaise),
          });
        }
      }
      results.sort((a, b) => a.payment_date.localeCompare(b.payment_date) || a.isin.localeCompare(b.isin));
      const sum = (key: 'interest' | 'principal' | 'total') => rupees(results.reduce((acc, r) => acc + Math.round(r[key] * 100), 0));
      return {
        from: formatDate(tradeDate),
        to: formatDate(to),
        results,
        totals: { interest: sum('interest'), principal: sum('principal'), total: sum('total') },
      };
    },

    /** The settled-order hook's move (README "Trades feed the book"), inside the settlement's transaction. */
    move,

    /** The elected node's pass over held bonds' stored figures (`inventory.figures.ts`); how many it priced. */
    storeHeldValuations: figures.storeHeld,

    /**
     * A starting node's read of every held bond's figures into its own (`inventory.bonds.ts`), pricing and storing
     * those missing; how many it priced and how many it keeps.
     */
    fillNodeBonds: () => nodeBonds.fill(valuationDates(deps.now()), figures.store),
    /** Forgets the node's bond figures (a bench's book of bonds no node has figures for). */
    forgetNodeBonds: () => nodeBonds.forget(),

    /**
     * Brings this node's copy of the firm's book up to date now, when it keeps one (an `inventory.revalued`
     * notice: the firm's open pages are about to read it). Reads would do it anyway; this does it before them.
     */
    async refreshBook(clientId: string): Promise<void> {
      if (!keeper.holds(clientId)) return;
      const { version, inputs } = await repo.bookState(clientId);
      await keeper.view(clientId, undefined, { version, inputs });
    },

    /**
     * The settled-order hook (README "Trades feed the book"), inside the settlement's transaction: the seller's
     * order sells, the buyer's procurement order buys, at the order's price on its trade date, into the account
     * of the order's custodian (MAIN when none). A sell comes out of that account, or out of MAIN when that
     * account does not hold enough; when neither does, the book is left alone and the audit says why (a
     * settlement is never refused for an incomplete book). Once per order (the movement's unique order id).
     */
    async settleOrder(tx: Tx, order: SettledOrder): Promise<void> {
      const r = createInventoryRepository(tx);
      if (await r.movementOfOrder(order.id)) return;
      await r.lockBook(order.clientId, istToday(deps.now()));
      const side = order.kind === 'procurement' ? 'BUY' : 'SELL';
      let account = accountOfCustodian(order.custodianId ? await r.custodianName(order.custodianId) : undefined);
      if (side === 'SELL') {
        const holds = async (a: string) => ((await r.holdingIn(order.clientId, order.finstrumentId, a))?.faceValue ?? 0) >= order.quantum;
        if (!(await holds(account))) {
          if (account === INVENTORY_DEFAULT_ACCOUNT || !(await holds(INVENTORY_DEFAULT_ACCOUNT))) {
            await writeAudit(tx, SETTLEMENT_AUDIT, {
              action: 'inventory.order_not_booked',
              entity: 'order',
              entityId: order.id,
              after: { client_id: order.clientId, finstrument_id: order.finstrumentId, account, side, face_value: order.quantum },
            });
            return;
          }
          account = INVENTORY_DEFAULT_ACCOUNT;
        }
      }
      await move(
        tx,
        {
          clientId: order.clientId,
          finstrumentId: order.finstrumentId,
          account,
          side,
          faceValue: order.quantum,
          price: order.price,
          tradeDate: order.tradeDate,
          source: 'ORDER',
          orderId: order.id,
          userId: order.userId,
        },
        { ...SETTLEMENT_AUDIT, actorClientId: order.clientId },
      );
    },
  };
}
export type InventoryService = ReturnType<typeof createInventoryService>;
