import type { NetworkFirm } from '../components/build-network-panel';

/** Someone the user chats with, as the route hands it over from the chat feature. */
export interface NetworkContact {
  clientId: string;
  firm: string;
  person: string;
}

/**
 * The Build Network list: the market's firms (deals, participant search) joined by the people the user
 * chats with, merged by firm name, filtered by the search like the market's half, most deals first.
 */
export function withChatContacts(firms: readonly NetworkFirm[], contacts: readonly NetworkContact[], search: string): NetworkFirm[] {
  const byName = new Map(firms.map((firm) => [firm.name, { ...firm, people: [...firm.people] }]));
  const needle = search.trim().toLowerCase();
  for (const contact of contacts) {
    if (needle && !contact.firm.toLowerCase().includes(needle) && !contact.person.toLowerCase().includes(needle)) continue;
    const firm = byName.get(contact.firm) ?? { id: contact.clientId, name: contact.firm, people: [], deals: 0 };
    if (!firm.people.includes(contact.person)) firm.people.push(contact.person);
    byName.set(contact.firm, firm);
  }
  return [...byName.values()].sort((a, b) => b.deals - a.deals || a.name.localeCompare(b.name));
}
