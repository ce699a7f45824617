/**
 * The Build Network panel's three sections from the four directory answers (pure, tested): firms we trade with
 * (the stats, filtered by the search here since the call takes none), partners (`api/clients/?is_partner=true`)
 * and brokers and facilitators (broker firms with their dealers). A firm known to the stats lends its contact and
 * RFQ exchanges to its rows in the other sections.
 */
import type { NetworkClient, NetworkFirmStats } from '@dart/contracts';
import type { AgentList } from '../api/list-agents';
import type { FacilitatorList } from '../api/list-facilitators';

/** One firm in a section, with what its one-click actions need. */
export interface NetworkRow {
  clientId: string;
  name: string;
  isBroker: boolean;
  /** People of the firm to show under its name (a broker's dealers). */
  people: string[];
  /** Our last 90 days with the firm; null when we have none. */
  stats: NetworkFirmStats | null;
  /** The person Chat opens a direct chat with; null when none is known. */
  contact: { userId: string; name: string } | null;
  /** Exchanges the firm takes RFQs on; null when unknown. */
  rfqExchanges: string[] | null;
}

export interface NetworkSections {
  trading: NetworkRow[];
  partners: NetworkRow[];
  brokers: NetworkRow[];
}

const byName = (a: NetworkRow, b: NetworkRow) => a.name.localeCompare(b.name);

const fromStats = (stats: NetworkFirmStats): NetworkRow => ({
  clientId: stats.client_id,
  name: stats.name,
  isBroker: stats.is_broker,
  people: [],
  stats,
  contact: stats.contact ? { userId: stats.contact.user_id, name: stats.contact.user_name } : null,
  rfqExchanges: stats.rfq_exchanges,
});

export function buildNetworkSections(input: {
  search: string;
  stats: readonly NetworkFirmStats[];
  partners: readonly NetworkClient[];
  facilitators: FacilitatorList['results'];
  agents: AgentList['results'];
}): NetworkSections {
  const needle = input.search.trim().toLowerCase();
  const known = new Map(input.stats.map((row) => [row.client_id, fromStats(row)]));
  // Stats rows come most deals first from the server; the search matches the firm or its contact.
  const trading = [...known.values()].filter(
    (row) => !needle || row.name.toLowerCase().includes(needle) || (row.contact?.name.toLowerCase().includes(needle) ?? false),
  );
  const partners = input.partners
    .filter((partner) => !partner.offline_record)
    .map(
      (partner): NetworkRow =>
        known.get(partner.client_id) ?? {
          clientId: partner.client_id,
          name: partner.name,
          isBroker: partner.is_broker,
          people: [],
          stats: null,
          contact: null,
          rfqExchanges: null,
        },
    )
    .sort(byName);
  const brokers = new Map<string, NetworkRow>();
  for (const firm of input.facilitators) {
    const base = known.get(firm.client_id);
    brokers.set(firm.client_id, {
      ...(base ?? { clientId: firm.client_id, name: firm.name, isBroker: true, stats: null, contact: null, rfqExchanges: null }),
      people: [],
    });
  }
  // An agent found by their own name brings their firm even when the firm's name did not match.
  for (const agent of input.agents) {
    const firm = brokers.get(agent.client_id) ?? {
      ...(known.get(agent.client_id) ?? { stats: null, contact: null, rfqExchanges: null }),
      clientId: agent.client_id,
      name: agent.brand_name,
      isBroker: true,
      people: [],
    };
    if (!firm.people.includes(agent.user_name)) firm.people.push(agent.user_name);
    if (!firm.contact) firm.contact = { userId: agent.user_id, name: agent.user_name };
    brokers.set(agent.client_id, firm);
  }
  return { trading, partners, brokers: [...brokers.values()].sort(byName) };
}
