import type { NetworkClient, NetworkFirmStats } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { buildNetworkSections } from './network-sections';

const stats = (clientId: string, name: string, extra: Partial<NetworkFirmStats> = {}): NetworkFirmStats => ({
  client_id: clientId,
  name,
  is_broker: false,
  rfq_exchanges: ['NSE'],
  contact: { user_id: `${clientId}-dealer`, user_name: `Dealer of ${name}` },
  requests: 2,
  answered: 1,
  response_rate: 0.5,
  median_response_seconds: 30,
  negotiations: 1,
  hit_rate: 1,
  quotes_held: 0,
  quotes_pulled: 0,
  deals: 1,
  last_activity_at: '2026-11-27T10:00:00.000Z',
  ...extra,
});
const partner = (clientId: string, name: string, extra: Partial<NetworkClient> = {}): NetworkClient => ({
  client_id: clientId,
  name,
  is_broker: false,
  is_partner: true,
  offline_record: false,
  contact: null,
  ...extra,
});

describe('buildNetworkSections', () => {
  it('keeps the stats order for firms we trade with and filters them by firm or contact name', () => {
    const input = {
      stats: [stats('b', 'Second Bank', { deals: 3 }), stats('a', 'Alpha Fund')],
      partners: [],
      facilitators: [],
      agents: [],
    };
    expect(buildNetworkSections({ ...input, search: '' }).trading.map((row) => row.name)).toEqual(['Second Bank', 'Alpha Fund']);
    expect(buildNetworkSections({ ...input, search: 'second' }).trading.map((row) => row.name)).toEqual(['Second Bank']);
    expect(buildNetworkSections({ ...input, search: 'dealer of alpha' }).trading.map((row) => row.name)).toEqual(['Alpha Fund']);
  });

  it('lends a partner known to the stats its contact and RFQ exchanges; others have neither; offline records are left out', () => {
    const { partners } = buildNetworkSections({
      search: '',
      stats: [stats('b', 'Second Bank')],
      partners: [partner('z', 'Zeta Bank'), partner('b', 'Second Bank'), partner('o', 'Offline Co', { offline_record: true })],
      facilitators: [],
      agents: [],
    });
    expect(partners.map((row) => [row.name, row.contact?.userId ?? null, row.rfqExchanges])).toEqual([
      ['Second Bank', 'b-dealer', ['NSE']],
      ['Zeta Bank', null, null],
    ]);
  });

  it('lists broker firms with their dealers; a dealer found by name brings the firm, and the first dealer is the contact', () => {
    const { brokers } = buildNetworkSections({
      search: 'farhan',
      stats: [],
      partners: [],
      facilitators: [{ client_id: 'k', name: 'Kappa Brokers', nsccl_code: null, iccl_code: null, agents: 0 }],
      agents: [
        { user_id: 'u1', user_name: 'Farhan Shaikh', client_id: 'd', brand_name: 'Demo Brokers' },
        { user_id: 'u2', user_name: 'Farhan Ali', client_id: 'd', brand_name: 'Demo Brokers' },
      ],
    });
    expect(brokers.map((row) => ({ name: row.name, people: row.people, contact: row.contact, isBroker: row.isBroker }))).toEqual([
      { name: 'Demo Brokers', people: ['Farhan Shaikh', 'Farhan Ali'], contact: { userId: 'u1', name: 'Farhan Shaikh' }, isBroker: true },
      { name: 'Kappa Brokers', people: [], contact: null, isBroker: true },
    ]);
  });
});
