/**
 * The network directories (issue 15 §1, reads only): other firms with partner and offline flags (`GET api/clients/`),
 * broker firms (`GET api/trade/facilitator/`) and their dealers (`GET api/trade/agent/`), the caller's own members
 * (`GET api/useraccounts/`) and the firm behind a website (`GET api/client/by-website/`). Other firms show names
 * and codes only, never e-mail, mobile or PAN; contacts are shown only on the caller's own offline records.
 */
import { TEAM_MESSAGES, type NetworkClient, type Role, type Permission } from '@dart/contracts';
import { AppError } from '../../lib/errors';
import type { AppDeps } from '../../types';
import type { Principal } from '../auth/principal';
import { createTeamRepository } from './team.repository';

const LIST_LIMIT = 50;

export function createTeamDirectory(deps: AppDeps) {
  const repo = createTeamRepository(deps.database.db);
  return {
    /**
     * `GET api/clients/`: `offline_record` true → the caller's offline records only, false → platform firms only,
     * absent → both; `is_partner` true → firms the caller has traded with (shares a ticket), false → the others.
     */
    async clients(p: Principal, query: { search: string; is_partner?: boolean | undefined; offline_record?: boolean | undefined }) {
      const wantFirms = query.offline_record !== true;
      // Offline records are never partners (nothing was traded with them on the platform).
      const wantOffline = query.offline_record !== false && query.is_partner !== true;
      const [firms, offline] = await Promise.all([
        wantFirms ? repo.networkFirms(p.clientId, { search: query.search, partnersOnly: query.is_partner, limit: LIST_LIMIT }) : [],
        wantOffline ? repo.offlineRecords(p.clientId, { search: query.search, limit: LIST_LIMIT }) : [],
      ]);
      const results: NetworkClient[] = [
        ...firms.map((f) => ({
          client_id: f.id,
          name: f.name,
          is_broker: f.isBroker,
          is_partner: Boolean(f.isPartner),
          offline_record: false,
          contact: null,
        })),
        ...offline.map((o) => ({
          client_id: o.id,
          name: o.name,
          is_broker: false,
          is_partner: false,
          offline_record: true,
          contact: { first_name: o.contactFirstName, last_name: o.contactLastName, email: o.contactEmail, mobile: o.contactMobile },
        })),
      ].sort((a, b) => a.name.localeCompare(b.name));
      return { results, count: results.length };
    },

    async facilitators(query: { search: string }) {
      const rows = await repo.facilitators(query.search, LIST_LIMIT);
      const results = rows.map((r) => ({
        client_id: r.id,
        name: r.name,
        nsccl_code: r.nscclName,
        iccl_code: r.icclName,
        agents: Number(r.agents),
      }));
      return { results, count: results.length };
    },

    async agents(query: { search: string }) {
      const rows = await repo.agents(query.search, LIST_LIMIT);
      const results = rows.map((r) => ({ user_id: r.userId, user_name: r.userName, client_id: r.clientId, brand_name: r.clientName }));
      return { results, count: results.length };
    },

    /** The caller's own organisation's members (every status), by name or e-mail. */
    async userAccounts(p: Principal, query: { search: string }) {
      const rows = await repo.members(p.clientId, { search: query.search });
      const results = rows.map((r) => ({ ...r, roles: r.roles as Role[], permissions: r.permissions as Permission[] }));
      return { results, count: results.length };
    },

    async byWebsite(query: { website: string }) {
      const row = await repo.clientByWebsite(query.website);
      if (!row) throw new AppError('NOT_FOUND', TEAM_MESSAGES.noClientForWebsite);
      return { client_id: row.id, name: row.name, is_broker: row.isBroker, website: row.website! };
    },
  };
}
export type TeamDirectory = ReturnType<typeof createTeamDirectory>;
