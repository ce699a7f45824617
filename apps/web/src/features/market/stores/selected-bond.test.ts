import { describe, expect, it, vi } from 'vitest';
import { createSelectedBondStore } from './selected-bond';

const NCD = { id: 7, label: 'HDFC Bank Limited 7.78% NCD 27-Mar-2027', isin: 'INE040A08XYZ' };
const GSEC = { id: 9, label: '7.18% GS 2033', isin: 'IN0020230085' };

describe('selected bond', () => {
  it('holds the last bond selected and tells its readers only when it changes', () => {
    const store = createSelectedBondStore();
    const changed = vi.fn<() => void>();
    store.subscribe(changed);
    expect(store.get()).toBeNull();
    store.select(NCD);
    store.select({ ...NCD }); // the same bond focused again (arrowing within one row)
    expect(changed).toHaveBeenCalledTimes(1);
    store.select(GSEC);
    expect(store.get()).toEqual(GSEC);
    expect(changed).toHaveBeenCalledTimes(2);
  });

  it('B / S ask for a ticket on the bond selected at that moment; the ticket takes the request once', () => {
    const store = createSelectedBondStore();
    const heard = vi.fn<() => void>();
    store.subscribeTicketRequests(heard);
    store.select(NCD);
    const first = store.requestTicket('BID');
    store.select(GSEC);
    expect(store.pendingTicket()).toEqual({ side: 'BID', bond: NCD, seq: first.seq });
    const second = store.requestTicket('ASK');
    expect(second.seq).toBeGreaterThan(first.seq);
    expect(heard).toHaveBeenCalledTimes(2);
    expect(store.takeTicketRequest()).toEqual({ side: 'ASK', bond: GSEC, seq: second.seq });
    expect(store.takeTicketRequest()).toBeNull();
  });

  it('with nothing selected, the request carries no bond (the ticket focuses its bond field)', () => {
    const store = createSelectedBondStore();
    expect(store.requestTicket('ASK').bond).toBeNull();
  });
});
