/** The workspace module's surface (issue 12 §2): the saved /dart layout of each user. */
import type { FastifyInstance } from 'fastify';
import { registerWorkspaceRoutes } from './workspace.routes';
import { createWorkspaceService, type WorkspaceService } from './workspace.service';

export type { WorkspaceService } from './workspace.service';

export function registerWorkspace(app: FastifyInstance): WorkspaceService {
  const workspace = createWorkspaceService(app.deps);
  registerWorkspaceRoutes(app, workspace);
  return workspace;
}
