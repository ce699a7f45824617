import { describe, expect, it } from 'vitest';
import type { FinstrumentRow } from '../finstruments';
import type { TicketRow } from './ticket-transitions';
import { createTicketCache } from './tickets.cache';

const row = (id: string, version: number) => ({ id, version, state: 'priced' }) as unknown as TicketRow;

describe('tickets.cache', () => {
  it('answers a kept ticket only at the version asked for', () => {
    const cache = createTicketCache();
    cache.keepTicket(row('a', 3));
    expect(cache.ticketAt('a', 3)).toMatchObject({ id: 'a', version: 3 });
    expect(cache.ticketAt('a', 2)).toBeUndefined();
    expect(cache.ticketAt('a', 4)).toBeUndefined();
    expect(cache.ticketAt('b', 3)).toBeUndefined();
  });

  it('never replaces a newer version with an older one, and forgets on demand', () => {
    const cache = createTicketCache();
    cache.keepTicket(row('a', 5));
    cache.keepTicket(row('a', 4));
    expect(cache.ticketAt('a', 5)).toBeDefined();
    expect(cache.ticketAt('a', 4)).toBeUndefined();
    cache.keepTicket(row('a', 6));
    expect(cache.ticketAt('a', 6)).toBeDefined();
    cache.forgetTicket('a');
    expect(cache.ticketAt('a', 6)).toBeUndefined();
  });

  it('keeps a copy: changing the caller’s object later does not change the kept row', () => {
    const cache = createTicketCache();
    const mine = row('a', 1);
    cache.keepTicket(mine);
    (mine as { state: string }).state = 'cancelled';
    expect(cache.ticketAt('a', 1)!.state).toBe('priced');
  });

  it('forgets the oldest ticket past its bound', () => {
    const cache = createTicketCache(2);
    cache.keepTicket(row('a', 1));
    cache.keepTicket(row('b', 1));
    cache.keepTicket(row('a', 2)); // a is now the newest
    cache.keepTicket(row('c', 1));
    expect(cache.ticketAt('b', 1)).toBeUndefined();
    expect(cache.ticketAt('a', 2)).toBeDefined();
    expect(cache.ticketAt('c', 1)).toBeDefined();
  });

  it('keeps what an acceptance read found: a custodian and held credentials, and forgets them when a read finds them gone', () => {
    const cache = createTicketCache();
    cache.keepAcceptanceReads('k1', { id: 'k1', name: 'HDFC Bank' }, 'firm', 'NSCCL', true);
    expect(cache.custodian('k1')).toEqual({ id: 'k1', name: 'HDFC Bank' });
    expect(cache.credentialsHeld('firm', 'NSCCL')).toBe(true);
    expect(cache.credentialsHeld('firm', 'ICCL')).toBe(false);
    cache.keepAcceptanceReads('k1', null, 'firm', 'NSCCL', false);
    expect(cache.custodian('k1')).toBeUndefined();
    expect(cache.credentialsHeld('firm', 'NSCCL')).toBe(false);
  });

  it('keeps a bond row with its fingerprint, and forgets it when a read finds no bond or on demand', () => {
    const cache = createTicketCache();
    const bond = { id: 7, isin: 'INE040A08955' } as unknown as FinstrumentRow;
    cache.keepBond(7, bond, 'abc');
    expect(cache.bond(7)).toEqual({ row: bond, hash: 'abc' });
    cache.keepBond(7, null, null);
    expect(cache.bond(7)).toBeUndefined();
    cache.keepBond(7, bond, 'abc');
    cache.forgetBond(7);
    expect(cache.bond(7)).toBeUndefined();
  });
});
