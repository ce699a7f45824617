import { describe, expect, it } from 'vitest';
import { withChatContacts } from './network';

describe('withChatContacts', () => {
  const firms = [
    { id: 'c2', name: 'Second Bank', people: ['Neha Kulkarni'], deals: 2 },
    { id: 'c3', name: 'Brokers & Co', people: [], deals: 0 },
  ];

  it('adds chat contacts under their firm, once, and a firm known only from chat', () => {
    const merged = withChatContacts(
      firms,
      [
        { clientId: 'c2', firm: 'Second Bank', person: 'Neha Kulkarni' },
        { clientId: 'c2', firm: 'Second Bank', person: 'Farhan Shaikh' },
        { clientId: 'c9', firm: 'Acme Treasury', person: 'Asha Rao' },
      ],
      '',
    );
    expect(merged).toEqual([
      { id: 'c2', name: 'Second Bank', people: ['Neha Kulkarni', 'Farhan Shaikh'], deals: 2 },
      { id: 'c9', name: 'Acme Treasury', people: ['Asha Rao'], deals: 0 },
      { id: 'c3', name: 'Brokers & Co', people: [], deals: 0 },
    ]);
    // The market's list is not changed in place.
    expect(firms[0]!.people).toEqual(['Neha Kulkarni']);
  });

  it('keeps only contacts whose firm or name matches the search', () => {
    const merged = withChatContacts(
      [],
      [
        { clientId: 'c9', firm: 'Acme Treasury', person: 'Asha Rao' },
        { clientId: 'c8', firm: 'Zen Fund', person: 'Vik Rao' },
        { clientId: 'c7', firm: 'Other', person: 'Someone' },
      ],
      'rao',
    );
    expect(merged.map((firm) => firm.name)).toEqual(['Acme Treasury', 'Zen Fund']);
  });
});
