/**
 * What a node last saw of tickets, their bonds, custodians and firms' credentials, so that a price call or an
 * acceptance of the consideration can skip its read (issue 13 "Speed": one statement a call fewer).
 *
 * Nothing here is ever trusted on its own: an entry is a guess that the statement writing the change checks.
 * - A **ticket** is kept with the version it had. Every write of a ticket bumps its version and the transition's
 *   update is under the version the caller sent, so a kept row whose version is the one the caller sent IS the
 *   stored row if that update matches anything; if it matches nothing (a newer version, written on this node or
 *   another, or the row deleted) the call goes the ordinary way (read, check, write), which names the refusal.
 * - A **custodian** (id and name, the name written into the history) and a firm's **credentials** at a clearing
 *   corporation (held: yes) are conditions of the same update (`acceptanceGuard`): a custodian renamed or gone,
 *   or credentials withdrawn since, make it match nothing, and the ordinary way then answers as it would have.
 * - A **bond** row (what a price call prices with) is kept with its fingerprint (`bondRowHash`, the MD5 of the
 *   whole row) and the price call's update requires the stored row's fingerprint to be the same (`bondGuard`).
 * Rows are kept only after their read or their write committed. Bounded: the oldest entry goes first.
 */
import type { CredentialCorp } from '@dart/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { credentialsHeldSql } from '../credentials';
import type { FinstrumentRow } from '../finstruments';
import type { TicketRow } from './ticket-transitions';
import { bondRowHash } from './tickets.repository';

/** Tickets kept per node: a trading day's open tickets of a busy floor fit many times over (~1 KB each). */
export const TICKET_CACHE_SIZE = 5_000;
/** Bonds, custodians and (firm, clearing corporation) pairs kept: the bonds a floor trades, and two short lists. */
const SMALL_CACHE_SIZE = 1_000;

/** A Map that forgets its oldest entry past `limit` (insertion order; a `set` moves a key to the end). */
function bounded<K, V>(limit: number) {
  const map = new Map<K, V>();
  return {
    get: (key: K) => map.get(key),
    set(key: K, value: V) {
      map.delete(key);
      map.set(key, value);
      if (map.size > limit) map.delete(map.keys().next().value as K);
    },
    delete: (key: K) => void map.delete(key),
  };
}

export interface Custodian {
  id: string;
  name: string;
}

export function createTicketCache(limit = TICKET_CACHE_SIZE) {
  const rows = bounded<string, TicketRow>(limit);
  const custodians = bounded<string, Custodian>(SMALL_CACHE_SIZE);
  const credentials = bounded<string, true>(SMALL_CACHE_SIZE);
  const bonds = bounded<number, { row: FinstrumentRow; hash: string }>(SMALL_CACHE_SIZE);
  const credentialKey = (clientId: string, corp: string) => `${clientId}:${corp}`;

  return {
    /** The kept row if it is at `version` (the caller's), else undefined. */
    ticketAt(id: string, version: number): TicketRow | undefined {
      const row = rows.get(id);
      return row?.version === version ? row : undefined;
    },
    keepTicket(row: TicketRow): void {
      const kept = rows.get(row.id);
      // Never replace a newer version (two calls of one ticket answering out of order).
      if (!kept || kept.version <= row.version) rows.set(row.id, { ...row });
    },
    forgetTicket: (id: string) => rows.delete(id),
    custodian: (id: string) => custodians.get(id),
    /** What a read found: a custodian kept or forgotten, credentials held or not. */
    keepAcceptanceReads(custodianId: string, custodian: Custodian | null, clientId: string, corp: string, held: boolean): void {
      if (custodian) custodians.set(custodianId, { ...custodian });
      else custodians.delete(custodianId);
      if (held) credentials.set(credentialKey(clientId, corp), true);
      else credentials.delete(credentialKey(clientId, corp));
    },
    credentialsHeld: (clientId: string, corp: string) => credentials.get(credentialKey(clientId, corp)) === true,
    /** A bond row as a read returned it, with its fingerprint; none (a ticket without its bond): forgotten. */
    keepBond(id: number, row: FinstrumentRow | null, hash: string | null): void {
      if (row && hash) bonds.set(id, { row, hash });
      else bonds.delete(id);
    },
    bond: (id: number) => bonds.get(id),
    forgetBond: (id: number) => bonds.delete(id),
  };
}

export type TicketCache = ReturnType<typeof createTicketCache>;

/**
 * The conditions, on the ticket's update, that the kept custodian still exists under that name and that the
 * accepting firm still holds credentials at the ticket's clearing corporation (`credentialsHeldSql`, the rule
 * the read checks).
 */
export const acceptanceGuard = (custodian: Custodian, clientId: string, corp: CredentialCorp): SQL =>
  sql`EXISTS (SELECT 1 FROM custodians k WHERE k.id = ${custodian.id} AND k.name = ${custodian.name}) AND ${credentialsHeldSql(clientId, corp)}`;

/** The condition, on a price call's update, that the bond's stored row is the one kept (same fingerprint). */
export const bondGuard = (bondId: number, hash: string): SQL =>
  sql`(SELECT ${bondRowHash(sql`f`)} FROM finstruments f WHERE f.id = ${bondId}) = ${hash}`;
