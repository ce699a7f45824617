/**
 * The people and firms a ticket can name, from `GET api/chatter/users-clients-unified/` (and the brokers of
 * `GET api/chatter/search-brokers/{id}`), as grouped options for a search select. An option's value says what
 * it is (`client:<id>` or `user:<id>`), so choosing a person also names their firm. Pure, unit-tested beside.
 */
import type { UnifiedClientSchema, UnifiedUserSchema } from '@dart/contracts';
import type { z } from 'zod';

export type UnifiedUser = z.infer<typeof UnifiedUserSchema>;
export type UnifiedClient = z.infer<typeof UnifiedClientSchema>;

/** A firm, or a person of a firm, chosen on a ticket. */
export interface PickedParticipant {
  clientId: string;
  userId: string | null;
  /** `Second Bank`, or `Asha Rao · Second Bank`. */
  label: string;
}

export interface ParticipantOption {
  value: string;
  label: string;
}

export interface ParticipantGroup {
  group: string;
  items: ParticipantOption[];
}

export type ParticipantKind =
  /** The other principal of a manual ticket: a trading firm (or one of its dealers), never the user's own, never a broker. */
  | 'counterparty'
  /** A broker firm's user (send to broker, a manual ticket's broker): people only, since the call takes a user. */
  | 'broker';

const personLabel = (user: Pick<UnifiedUser, 'user_name' | 'brand_name'>) => `${user.user_name} · ${user.brand_name}`;

/** The select's groups for what the search answered, leaving out what this kind of pick cannot take. */
export function participantGroups(
  data: { users: readonly UnifiedUser[]; clients: readonly UnifiedClient[] },
  kind: ParticipantKind,
  ownClientId: string,
): ParticipantGroup[] {
  const wantsBroker = kind === 'broker';
  const users = data.users.filter((user) => user.is_broker === wantsBroker && user.client_id !== ownClientId);
  const groups: ParticipantGroup[] = [];
  if (kind === 'counterparty') {
    const clients = data.clients.filter((client) => !client.is_broker && client.client_id !== ownClientId);
    if (clients.length > 0)
      groups.push({ group: 'Firms', items: clients.map((client) => ({ value: `client:${client.client_id}`, label: client.name })) });
  }
  if (users.length > 0)
    groups.push({
      group: wantsBroker ? 'Brokers' : 'Dealers',
      items: users.map((user) => ({ value: `user:${user.user_id}`, label: personLabel(user) })),
    });
  return groups;
}

/** Broker users (`search-brokers`) as the select's one group. */
export function brokerGroups(users: readonly UnifiedUser[]): ParticipantGroup[] {
  return users.length === 0
    ? []
    : [{ group: 'Brokers', items: users.map((user) => ({ value: `user:${user.user_id}`, label: personLabel(user) })) }];
}

/** The participant an option value names, looked up in what the search answered; null if it is not there. */
export function pickParticipant(
  value: string,
  data: { users: readonly UnifiedUser[]; clients: readonly UnifiedClient[] },
): PickedParticipant | null {
  const [type, id] = value.split(':', 2);
  if (type === 'client') {
    const client = data.clients.find((row) => row.client_id === id);
    return client ? { clientId: client.client_id, userId: null, label: client.name } : null;
  }
  if (type === 'user') {
    const user = data.users.find((row) => row.user_id === id);
    return user ? { clientId: user.client_id, userId: user.user_id, label: personLabel(user) } : null;
  }
  return null;
}

/** The option value of a chosen participant (so the select shows it after a new search). */
export const participantValue = (picked: PickedParticipant) => (picked.userId ? `user:${picked.userId}` : `client:${picked.clientId}`);
