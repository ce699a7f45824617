/**
 * Who can be put on a ticket: firms and their trading members (`users-clients-unified`), the brokers who may
 * work the caller's side of a ticket (`search-brokers`), a firm's dealers (`trade/client/users`) and the
 * SEBI-registered custodians. Reads only; never e-mail or PAN in a search (a firm's dealer list shows e-mail
 * to the firms it trades with, to choose the dealer). Participant search by role stays in the market module
 * (`GET api/chatter/search-trade-participants`).
 */
import { TICKET_MESSAGES } from '@dart/contracts';
import { AppError } from '../../lib/errors';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';
import { createTicketsRepository, type MemberRow } from './tickets.repository';
import { isParticipant } from './tickets.roles';

const SEARCH_LIMIT = 20;
const CUSTODIAN_LIMIT = 50;

const unifiedUser = (m: MemberRow) => ({
  user_id: m.userId,
  user_name: m.userName,
  client_id: m.clientId,
  brand_name: m.clientName,
  is_broker: m.isBroker,
});

export function createTicketDirectory(deps: AppDeps) {
  const repo = createTicketsRepository(deps.database.db);
  return {
    /** `GET api/chatter/users-clients-unified/`: other firms with trade access and their trading members. */
    async unified(p: Principal, query: { search_param: string; broker?: boolean | undefined }) {
      const { firms, members } = await repo.searchUnified({
        excludeClientIds: [p.clientId],
        search: query.search_param,
        broker: query.broker,
        limit: SEARCH_LIMIT,
      });
      return {
        users: members.map(unifiedUser),
        clients: firms.map((f) => ({
          client_id: f.id,
          name: f.name,
          is_broker: f.isBroker,
          nsccl_code: f.nscclName,
          iccl_code: f.icclName,
        })),
      };
    },

    /** `GET api/chatter/search-brokers/{id}`: broker users who may work the caller's side of the ticket. */
    async brokers(p: Principal, ticketId: string, query: { search_param: string }) {
      const t = await repo.find(ticketId);
      if (!t || !isParticipant(t, p.clientId)) throw new AppError('NOT_FOUND', TICKET_MESSAGES.notFound);
      const { members } = await repo.searchUnified({
        excludeClientIds: [t.buyerClientId, t.sellerClientId],
        search: query.search_param,
        broker: true,
        limit: SEARCH_LIMIT,
        membersWithoutSearch: true,
      });
      return members.map(unifiedUser);
    },

    /** `GET /api/client/search-custodians/`: custodians by name (client_id is the custodian's id). */
    async custodians(query: { search_param: string }) {
      const rows = await repo.searchCustodians(query.search_param, CUSTODIAN_LIMIT);
      return rows.map((c) => ({ client_id: c.id, name: c.name }));
    },

    /**
     * `GET api/trade/client/users/{id}/` ({id}: a firm): its active trading members — the caller's own firm,
     * a broker firm, or a firm it shares a ticket with; any other firm is "not found".
     */
    async clientUsers(p: Principal, clientId: string) {
      const firm = (await repo.firms([clientId])).get(clientId);
      const allowed = firm && (firm.id === p.clientId || firm.isBroker || (await repo.shareTicket(p.clientId, firm.id)));
      if (!allowed) throw new AppError('NOT_FOUND', 'Client not found.');
      return (await repo.traders(clientId)).map((m) => ({ user_id: m.userId, user_name: m.userName, email: m.email }));
    },
  };
}
export type TicketDirectory = ReturnType<typeof createTicketDirectory>;
