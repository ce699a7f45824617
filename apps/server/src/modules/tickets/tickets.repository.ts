/**
 * SQL of the tickets module: tickets, their history, the firms, users, bonds and custodians a ticket view
 * names, the participant searches, and the deal a ticket comes from. Each function takes the database or a
 * transaction (`createTicketsRepository(tx)`), so writes and their reads share one connection.
 */
import { and, asc, desc, eq, exists, getTableColumns, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { sqlRows, type DbOrTx } from '../../db/client';
import { pgArray } from '../../db/pg-array';
import { rowDecoder } from '../../db/row-decoder';
import {
  clients,
  custodians,
  deals,
  finstruments,
  orders,
  quotes,
  tickets,
  userAccountPermissions,
  userAccounts,
  users,
} from '../../db/schema';
import { readTicketRow, TICKET_ROW, type TicketRow } from './ticket-transitions';
import { credentialsHeldSql } from '../credentials';
import type { FinstrumentRow } from '../finstruments';
import { ORDER_ROW } from '../orders/orders.repository';

export type DealRow = typeof deals.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type NewTicket = typeof tickets.$inferInsert;

export interface BondTerms {
  id: number;
  isin: string;
  displayName: string;
  securityType: string;
  faceValue: number | null;
}
export interface FirmRow {
  id: string;
  name: string;
  isBroker: boolean;
  nscclName: string | null;
  icclName: string | null;
}
/** A history entry as the view reads it (`at` as PostgreSQL's JSON text of the timestamp). */
export interface HistoryRow {
  seq: number;
  action: string;
  fromState: string | null;
  toState: string;
  actorName: string | null;
  actorFirm: string | null;
  at: string;
  changes: unknown;
  reason: string | null;
}
/** The ids a set of ticket views names. */
export interface ViewIds {
  bonds: readonly number[];
  firms: readonly string[];
  users: readonly string[];
  custodians: readonly string[];
}

/** The columns of `viewNamesColumns` as the drivers answer them. */
export interface ViewNamesRow {
  bonds: BondTerms[];
  firms: FirmRow[];
  users: Array<{ id: string; name: string }>;
  custodians: Array<{ id: string; name: string }>;
  history: HistoryRow[] | null;
}

/** ticket_events' columns a view's history shows. */
const HISTORY_COLUMNS = sql.raw('seq, action, from_state, to_state, actor_user_id, actor_client_id, at, changes, reason');

/**
 * What a ticket view names as five columns of a SELECT (`bonds`, `firms`, `users`, `custodians`, each a JSON
 * aggregate, and `history`): the read's (`viewNames`), or the ones a ticket's write statement answers with
 * (`writeTicketTransitions`). `history.appended`: a relation with the history columns of the rows the same
 * statement appends (its `history` CTE), which the statement's own read of `ticket_events` does not see.
 */
export function viewNamesColumns(ids: ViewIds, history: { ticketId: string; appended?: SQL } | null): SQL {
  const unique = <T>(values: readonly T[]) => [...new Set(values)];
  const events = history
    ? sql`(SELECT ${HISTORY_COLUMNS} FROM ticket_events WHERE ticket_id = ${history.ticketId}
           ${history.appended ? sql`UNION ALL SELECT ${HISTORY_COLUMNS} FROM ${history.appended}` : sql``})`
    : sql`(SELECT ${HISTORY_COLUMNS} FROM ticket_events WHERE false)`;
  return sql`
      (SELECT coalesce(json_agg(json_build_object('id', f.id, 'isin', f.isin, 'displayName', f.display_name,
          'securityType', f.security_type, 'faceValue', f.face_value)), '[]')
         FROM finstruments f WHERE f.id = ANY (${pgArray(unique(ids.bonds))}::int[])) AS bonds,
      (SELECT coalesce(json_agg(json_build_object('id', c.id, 'name', c.name, 'isBroker', c.is_broker,
          'nscclName', c.nsccl_name, 'icclName', c.iccl_name)), '[]')
         FROM clients c WHERE c.id = ANY (${pgArray(unique(ids.firms))}::uuid[])) AS firms,
      (SELECT coalesce(json_agg(json_build_object('id', u.id, 'name', u.first_name || ' ' || u.last_name)), '[]')
         FROM users u WHERE u.id = ANY (${pgArray(unique(ids.users))}::uuid[])) AS users,
      (SELECT coalesce(json_agg(json_build_object('id', k.id, 'name', k.name)), '[]')
         FROM custodians k WHERE k.id = ANY (${pgArray(unique(ids.custodians))}::uuid[])) AS custodians,
      (SELECT json_agg(json_build_object('seq', e.seq, 'action', e.action, 'fromState', e.from_state,
          'toState', e.to_state, 'actorName', u.first_name || ' ' || u.last_name, 'actorFirm', c.name,
          'at', e.at, 'changes', e.changes, 'reason', e.reason) ORDER BY e.seq)
         FROM ${events} e
         LEFT JOIN users u ON u.id = e.actor_user_id
         LEFT JOIN clients c ON c.id = e.actor_client_id) AS history`;
}

export function decodeViewNames(row: ViewNamesRow): ViewNames {
  return {
    bonds: new Map(row.bonds.map((b) => [b.id, b])),
    firms: new Map(row.firms.map((f) => [f.id, f])),
    users: new Map(row.users.map((u) => [u.id, u.name])),
    custodians: new Map(row.custodians.map((k) => [k.id, k.name])),
    history: row.history ?? [],
  };
}

/** Everything a ticket view names, read in one statement. */
export interface ViewNames {
  bonds: Map<number, BondTerms>;
  firms: Map<string, FirmRow>;
  users: Map<string, string>;
  custodians: Map<string, string>;
  history: HistoryRow[];
}
export interface MemberRow {
  userId: string;
  userName: string;
  email: string;
  clientId: string;
  clientName: string;
  isBroker: boolean;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const fullName = sql<string>`${users.firstName} || ' ' || ${users.lastName}`;
const activeMember = (): SQL => and(eq(userAccounts.status, 'active'), eq(users.isActive, true))!;

/** The firm's side of a ticket (principal or broker): the reader sees the ticket. */
export const participantOf = (clientId: string): SQL =>
  or(
    eq(tickets.buyerClientId, clientId),
    eq(tickets.sellerClientId, clientId),
    eq(tickets.buyerBrokerClientId, clientId),
    eq(tickets.sellerBrokerClientId, clientId),
  )!;

/**
 * "Needs my action" (README "Needing my action"): the next step of the trade is the reader's firm's — send a
 * draft it created, price a ticket it is the price setter of (the seller or the buyer's broker), or accept a
 * priced consideration for a side it acts for that has not accepted yet.
 */
export const needsActionOf = (clientId: string): SQL => sql`(
  (${tickets.state} = 'draft' AND ${tickets.createdByClientId} = ${clientId})
  OR (${tickets.state} = 'sent' AND (${tickets.sellerClientId} = ${clientId} OR ${tickets.buyerBrokerClientId} = ${clientId}))
  OR (${tickets.state} = 'priced' AND (
        (${tickets.buyerAcceptedAt} IS NULL AND (${tickets.buyerClientId} = ${clientId} OR ${tickets.buyerBrokerClientId} = ${clientId}))
     OR (${tickets.sellerAcceptedAt} IS NULL AND (${tickets.sellerClientId} = ${clientId} OR ${tickets.sellerBrokerClientId} = ${clientId}))))
)`;

/**
 * The reads every user action on a ticket starts with, as raw statements decoded by each column's own decoder
 * (`TICKET_ROW`, `BOND_ROW`): the query builder's mapping of a ticket's 40 columns and its bond's row, field by
 * field on every call, cost the server more than the database did (issue 13's profiles; even as Drizzle
 * prepared queries). The pool names each statement's text, so each connection parses it once.
 */
const BOND_ROW = rowDecoder<FinstrumentRow>(getTableColumns(finstruments), 'b_');
/**
 * A bond row's fingerprint: the MD5 of the whole row as text. Any change of any column changes it (a session
 * that printed times in another zone would only make it differ, never match wrongly).
 */
export const bondRowHash = (alias: SQL): SQL<string> => sql<string>`md5(${alias}::text)`;
const BOND_ID = BOND_ROW.nameOf('id');

export function createTicketsRepository(db: DbOrTx) {
  return {
    async find(id: string): Promise<TicketRow | undefined> {
      return readTicketRow(db, id);
    },
    /**
     * The ticket and its bond's whole row in one statement (null: no such bond): what a re-pricing call reads
     * first, and prices from (`TicketPricer.price`'s `row`).
     */
    /**
     * The ticket and its bond's row, with the bond row's fingerprint (`bondRowHash`): what a later price call
     * under that bond kept checks in its write (`tickets.cache.ts`).
     */
    async findWithBond(id: string): Promise<{ ticket: TicketRow; bond: FinstrumentRow | null; bondHash: string | null } | undefined> {
      const [row] = await sqlRows(
        db,
        sql`SELECT ${TICKET_ROW.select('t')}, ${BOND_ROW.select('b')}, ${bondRowHash(sql`b`)} AS b_row_hash
              FROM tickets t LEFT JOIN finstruments b ON b.id = t.finstrument_id WHERE t.id = ${id}`,
      );
      if (!row) return undefined;
      const bond = row[BOND_ID] === null ? null : BOND_ROW.decode(row);
      return { ticket: TICKET_ROW.decode(row), bond, bondHash: bond ? (row.b_row_hash as string) : null };
    },
    /**
     * An acceptance's reads in one statement (three before): the ticket, the custodian chosen (null: unknown)
     * and whether the accepting firm holds credentials at the ticket's clearing corporation (the credentials
     * module's rule, `credentialsHeldSql`).
     */
    async findForAcceptance(
      id: string,
      custodianId: string,
      clientId: string,
    ): Promise<{ ticket: TicketRow; custodian: { id: string; name: string } | null; hasCredentials: boolean } | undefined> {
      const [row] = await sqlRows(
        db,
        sql`SELECT ${TICKET_ROW.select('t')}, k.id AS k_id, k.name AS k_name,
                   ${credentialsHeldSql(clientId, sql`t.clearing_corporation`)} AS k_credentials
              FROM tickets t LEFT JOIN custodians k ON k.id = ${custodianId} WHERE t.id = ${id}`,
      );
      if (!row) return undefined;
      return {
        ticket: TICKET_ROW.decode(row),
        custodian: row.k_id === null ? null : { id: row.k_id as string, name: row.k_name as string },
        hasCredentials: row.k_credentials === true,
      };
    },
    async findByDeal(dealId: string): Promise<TicketRow | undefined> {
      const [row] = await sqlRows(db, sql`SELECT ${TICKET_ROW.select('t')} FROM tickets t WHERE t.deal_id = ${dealId}`);
      return row && TICKET_ROW.decode(row);
    },
    /** Inserts a ticket; a second ticket for the same deal is not inserted (undefined: the deal has one). */
    async insert(values: NewTicket): Promise<TicketRow | undefined> {
      const [row] = await db.insert(tickets).values(values).onConflictDoNothing().returning();
      return row;
    },

    /** The firm's tickets (any side), needing its action first, then the most recently changed. */
    async list(
      clientId: string,
      filter: { state?: string | undefined; needsAction?: boolean | undefined; open?: boolean | undefined },
      limit: number,
      offset: number,
    ): Promise<{ rows: TicketRow[]; count: number }> {
      const conditions: SQL[] = [participantOf(clientId)];
      if (filter.state) conditions.push(eq(tickets.state, filter.state));
      if (filter.open === true) conditions.push(sql`${tickets.state} NOT IN ('settled', 'cancelled', 'rejected')`);
      if (filter.open === false) conditions.push(sql`${tickets.state} IN ('settled', 'cancelled', 'rejected')`);
      const needs = needsActionOf(clientId);
      if (filter.needsAction === true) conditions.push(needs);
      if (filter.needsAction === false) conditions.push(sql`NOT ${needs}`);
      const where = and(...conditions);
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(tickets)
          .where(where)
          .orderBy(sql`CASE WHEN ${needs} THEN 0 ELSE 1 END`, desc(tickets.updatedAt), desc(tickets.number))
          .limit(limit)
          .offset(offset),
        db
          .select({ count: sql<number>`count(*)::int` })
          .from(tickets)
          .where(where),
      ]);
      return { rows, count: Number(total?.count ?? 0) };
    },

    /**
     * The bonds, firms, user names and custodians of a set of ticket views, and one ticket's history when asked:
     * ONE statement (each list a JSON aggregate), where the four lookups and the history were five round trips
     * for every ticket answered (bench/post-trade).
     */
    async viewNames(ids: ViewIds, historyOf: string | null): Promise<ViewNames> {
      const [row] = await sqlRows<ViewNamesRow>(
        db,
        sql`SELECT ${viewNamesColumns(ids, historyOf === null ? null : { ticketId: historyOf })}`,
      );
      return decodeViewNames(row!);
    },

    async bonds(ids: readonly number[]): Promise<Map<number, BondTerms>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({
          id: finstruments.id,
          isin: finstruments.isin,
          displayName: finstruments.displayName,
          securityType: finstruments.securityType,
          faceValue: finstruments.faceValue,
        })
        .from(finstruments)
        .where(inArray(finstruments.id, [...new Set(ids)]));
      return new Map(rows.map((r) => [r.id, r]));
    },
    async firms(ids: readonly string[]): Promise<Map<string, FirmRow>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({
          id: clients.id,
          name: clients.name,
          isBroker: clients.isBroker,
          nscclName: clients.nsccl_name,
          icclName: clients.iccl_name,
        })
        .from(clients)
        .where(inArray(clients.id, [...new Set(ids)]));
      return new Map(rows.map((r) => [r.id, r]));
    },
    async custodian(id: string) {
      const [row] = await db.select().from(custodians).where(eq(custodians.id, id));
      return row;
    },
    async searchCustodians(search: string, limit: number) {
      return db
        .select()
        .from(custodians)
        .where(search ? ilike(custodians.name, `%${escapeLike(search)}%`) : undefined)
        .orderBy(sql`lower(${custodians.name})`)
        .limit(limit);
    },
    /** Raw, decoded by the columns' own decoders: the query builder's select of 35 columns cost more than the statement. */
    async ordersOf(ticketIds: readonly string[]): Promise<OrderRow[]> {
      if (ticketIds.length === 0) return [];
      const rows = await sqlRows(
        db,
        sql`SELECT ${ORDER_ROW.select('o')} FROM orders o WHERE o.ticket_id = ANY(${pgArray(ticketIds)}::uuid[])`,
      );
      return rows.map((row) => ORDER_ROW.decode(row));
    },

    async deal(id: string): Promise<DealRow | undefined> {
      const [row] = await db.select().from(deals).where(eq(deals.id, id));
      return row;
    },
    /** The exchange legs of a deal (an exchange RFQ deal has one): venue and clearing corporation. */
    async dealLegs(ids: readonly string[]) {
      if (ids.length === 0) return [];
      return db
        .select({ exchange: quotes.exchange, clearingCorporation: quotes.clearingCorporation })
        .from(quotes)
        .where(inArray(quotes.id, [...ids]));
    },

    /** An active member of a firm (the firm, its name and whether it is a broker), or undefined. */
    async member(userId: string, clientId?: string): Promise<MemberRow | undefined> {
      const [row] = await db
        .select({
          userId: users.id,
          userName: fullName,
          email: users.email,
          clientId: clients.id,
          clientName: clients.name,
          isBroker: clients.isBroker,
        })
        .from(userAccounts)
        .innerJoin(users, eq(users.id, userAccounts.userId))
        .innerJoin(clients, eq(clients.id, userAccounts.clientId))
        .where(and(eq(users.id, userId), activeMember(), clientId ? eq(clients.id, clientId) : undefined))
        .orderBy(desc(clients.isBroker))
        .limit(1);
      return row;
    },
    /** The active members of a firm who may trade (`client.can_trade`), by name. */
    async traders(clientId: string): Promise<MemberRow[]> {
      return db
        .select({
          userId: users.id,
          userName: fullName,
          email: users.email,
          clientId: clients.id,
          clientName: clients.name,
          isBroker: clients.isBroker,
        })
        .from(userAccounts)
        .innerJoin(users, eq(users.id, userAccounts.userId))
        .innerJoin(clients, eq(clients.id, userAccounts.clientId))
        .innerJoin(userAccountPermissions, eq(userAccountPermissions.userAccountId, userAccounts.id))
        .where(and(eq(clients.id, clientId), activeMember(), eq(userAccountPermissions.permission, 'client.can_trade')))
        .orderBy(sql`lower(${fullName})`, asc(users.id));
    },
    /** Whether two firms share a ticket (a firm may list the dealers of a firm it trades with). */
    async shareTicket(a: string, b: string): Promise<boolean> {
      const [row] = await db
        .select({ id: tickets.id })
        .from(tickets)
        .where(and(participantOf(a), participantOf(b)))
        .limit(1);
      return row !== undefined;
    },

    /**
     * Firms (other than `excludeClientId`) with trade access, and their trading members, matching a name:
     * firms by firm name, members by first, last or full name or their firm's name. `broker`: broker firms
     * only (true), non-brokers only (false). An empty search lists firms only. Never e-mail or PAN.
     */
    async searchUnified(options: {
      excludeClientIds: readonly string[];
      search: string;
      broker?: boolean | undefined;
      limit: number;
      /** List members for an empty search too (the broker search of a ticket). */
      membersWithoutSearch?: boolean;
    }) {
      const trader = db
        .select({ one: sql`1` })
        .from(userAccounts)
        .innerJoin(users, eq(users.id, userAccounts.userId))
        .innerJoin(userAccountPermissions, eq(userAccountPermissions.userAccountId, userAccounts.id))
        .where(and(eq(userAccounts.clientId, clients.id), activeMember(), eq(userAccountPermissions.permission, 'client.can_trade')));
      const firmConditions: SQL[] = [exists(trader), ...options.excludeClientIds.map((id) => ne(clients.id, id))];
      if (options.broker !== undefined) firmConditions.push(eq(clients.isBroker, options.broker));
      const pattern = options.search ? `%${escapeLike(options.search)}%` : null;
      const firms = await db
        .select({
          id: clients.id,
          name: clients.name,
          isBroker: clients.isBroker,
          nscclName: clients.nsccl_name,
          icclName: clients.iccl_name,
        })
        .from(clients)
        .where(and(...firmConditions, pattern ? ilike(clients.name, pattern) : undefined))
        .orderBy(sql`lower(${clients.name})`, asc(clients.id))
        .limit(options.limit);
      if (!pattern && !options.membersWithoutSearch) return { firms, members: [] as MemberRow[] };
      const members = await db
        .selectDistinct({
          userId: users.id,
          userName: fullName,
          email: users.email,
          clientId: clients.id,
          clientName: clients.name,
          isBroker: clients.isBroker,
        })
        .from(userAccounts)
        .innerJoin(users, eq(users.id, userAccounts.userId))
        .innerJoin(clients, eq(clients.id, userAccounts.clientId))
        .innerJoin(userAccountPermissions, eq(userAccountPermissions.userAccountId, userAccounts.id))
        .where(
          and(
            ...firmConditions,
            activeMember(),
            eq(userAccountPermissions.permission, 'client.can_trade'),
            pattern
              ? or(ilike(users.firstName, pattern), ilike(users.lastName, pattern), ilike(fullName, pattern), ilike(clients.name, pattern))
              : undefined,
          ),
        )
        .orderBy(fullName, clients.name, users.id)
        .limit(options.limit);
      return { firms, members };
    },
  };
}
export type TicketsRepository = ReturnType<typeof createTicketsRepository>;
