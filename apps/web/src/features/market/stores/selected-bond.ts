/**
 * The bond the dealer has selected in a blotter (a public or private runs row, a market-depth
 * instrument), and the ticket requests that `B` / `S` make on it. A tiny external store read with
 * useSyncExternalStore: the blotters write it, the quote ticket reads it, and a layout that hides the
 * ticket (a docked tab) can listen for a request to bring the ticket forward.
 */
import { useSyncExternalStore } from 'react';

export interface SelectedBond {
  id: number;
  label: string;
  isin: string;
}

/** A ticket asked for by `B` (bid) or `S` (ask): on the selected bond, or on none (then the ticket's bond field is focused). */
export interface TicketRequest {
  side: 'BID' | 'ASK';
  bond: SelectedBond | null;
  /** Increases with every request, so two presses of `B` are two requests. */
  seq: number;
  /** A private run asked for (Build Network's "Private run"): the ticket's counterparties become these firms. */
  counterparties?: Array<{ clientId: string; name: string }>;
}

export interface SelectedBondStore {
  get(): SelectedBond | null;
  select(bond: SelectedBond | null): void;
  subscribe(listener: () => void): () => void;
  /** Asks for a ticket on the selected bond; it waits until a ticket takes it. */
  requestTicket(side: TicketRequest['side'], counterparties?: TicketRequest['counterparties']): TicketRequest;
  /** The request waiting for a ticket (for a layout to show the ticket panel), without taking it. */
  pendingTicket(): TicketRequest | null;
  /** Takes the waiting request (the ticket that applies it). */
  takeTicketRequest(): TicketRequest | null;
  subscribeTicketRequests(listener: () => void): () => void;
}

export function createSelectedBondStore(): SelectedBondStore {
  let selected: SelectedBond | null = null;
  let pending: TicketRequest | null = null;
  let seq = 0;
  const listeners = new Set<() => void>();
  const requestListeners = new Set<() => void>();
  return {
    get: () => selected,
    select(bond) {
      if (bond === selected || (bond && selected && bond.id === selected.id && bond.label === selected.label)) return;
      selected = bond ? { id: bond.id, label: bond.label, isin: bond.isin } : null;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    requestTicket(side, counterparties) {
      seq += 1;
      pending = { side, bond: selected, seq, ...(counterparties ? { counterparties } : {}) };
      const request = pending;
      for (const listener of requestListeners) listener();
      return request;
    },
    pendingTicket: () => pending,
    takeTicketRequest() {
      const request = pending;
      pending = null;
      return request;
    },
    subscribeTicketRequests(listener) {
      requestListeners.add(listener);
      return () => requestListeners.delete(listener);
    },
  };
}

/** The workspace's selection (one per browser tab). */
export const selectedBond = createSelectedBondStore();

/** Opens the quote ticket (bid, on the selected bond if any) as a private run to one firm, for other features' rows. */
export function requestPrivateRunTicket(firm: { clientId: string; name: string }): void {
  selectedBond.requestTicket('BID', [firm]);
}

/** Hears every `B` / `S` ticket request (a layout shows the ticket panel on it); returns the unsubscribe. */
export function onTicketRequest(listener: () => void): () => void {
  return selectedBond.subscribeTicketRequests(listener);
}

export function useSelectedBond(store: SelectedBondStore = selectedBond): SelectedBond | null {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
