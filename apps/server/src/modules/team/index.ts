/**
 * The team module's surface (issue 15 §1): the organisation profile, members' roles, offline counterparties and the
 * network directories. Invites stay in the users module (their spec paths are registered there); the invite check
 * is the auth service's, passed in.
 */
import type { FastifyInstance } from 'fastify';
import { createTeamDirectory } from './team.directory';
import { createInviteResender } from './team.invites';
import { createNetworkStats } from './team.network-stats';
import { registerNetworkStatsRoute, registerTeamRoutes } from './team.routes';
import { createTeamService, type TeamService } from './team.service';

export type { TeamService } from './team.service';

export function registerTeam(
  app: FastifyInstance,
  modules: { validateInvite: (code: string) => Promise<{ valid: true; email: string; client_name: string }> },
): TeamService {
  const team = createTeamService(app.deps);
  registerTeamRoutes(app, team, createTeamDirectory(app.deps), modules.validateInvite, createInviteResender(app.deps));
  registerNetworkStatsRoute(app, createNetworkStats(app.deps));
  return team;
}
