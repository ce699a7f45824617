import { describe, expect, it } from 'vitest';
import { brokerGroups, participantGroups, participantValue, pickParticipant, type UnifiedClient, type UnifiedUser } from './participants';

const OWN = '11111111-1111-4111-8111-111111111111';
const SECOND = '22222222-2222-4222-8222-222222222222';
const BROKERS = '33333333-3333-4333-8333-333333333333';

const client = (client_id: string, name: string, is_broker = false): UnifiedClient => ({
  client_id,
  name,
  is_broker,
  nsccl_code: null,
  iccl_code: null,
});
const user = (user_id: string, user_name: string, client_id: string, brand_name: string, is_broker = false): UnifiedUser => ({
  user_id,
  user_name,
  client_id,
  brand_name,
  is_broker,
});

const data = {
  clients: [client(OWN, 'Demo Capital'), client(SECOND, 'Second Bank'), client(BROKERS, 'Demo Brokers', true)],
  users: [
    user('u1', 'Asha Rao', OWN, 'Demo Capital'),
    user('u2', 'Vikram Shah', SECOND, 'Second Bank'),
    user('u3', 'Meera Iyer', BROKERS, 'Demo Brokers', true),
  ],
};

describe('participants of a ticket', () => {
  it('offers a counterparty the other trading firms and their dealers, never the own firm or a broker', () => {
    expect(participantGroups(data, 'counterparty', OWN)).toEqual([
      { group: 'Firms', items: [{ value: `client:${SECOND}`, label: 'Second Bank' }] },
      { group: 'Dealers', items: [{ value: 'user:u2', label: 'Vikram Shah · Second Bank' }] },
    ]);
  });

  it('offers a broker broker firms’ users only (the call takes a user)', () => {
    expect(participantGroups(data, 'broker', OWN)).toEqual([
      { group: 'Brokers', items: [{ value: 'user:u3', label: 'Meera Iyer · Demo Brokers' }] },
    ]);
    expect(brokerGroups([])).toEqual([]);
    expect(brokerGroups([data.users[2]!])).toEqual([
      { group: 'Brokers', items: [{ value: 'user:u3', label: 'Meera Iyer · Demo Brokers' }] },
    ]);
  });

  it('leaves empty groups out', () => {
    expect(participantGroups({ clients: [], users: [] }, 'counterparty', OWN)).toEqual([]);
  });

  it('picks a firm, or a person with their firm, from an option value and back', () => {
    const firm = pickParticipant(`client:${SECOND}`, data);
    expect(firm).toEqual({ clientId: SECOND, userId: null, label: 'Second Bank' });
    const person = pickParticipant('user:u2', data);
    expect(person).toEqual({ clientId: SECOND, userId: 'u2', label: 'Vikram Shah · Second Bank' });
    expect(participantValue(firm!)).toBe(`client:${SECOND}`);
    expect(participantValue(person!)).toBe('user:u2');
    expect(pickParticipant('user:nobody', data)).toBeNull();
    expect(pickParticipant('nonsense', data)).toBeNull();
  });
});
