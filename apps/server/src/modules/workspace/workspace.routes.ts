/** HTTP of the workspace module: GET and PUT of the caller's own /dart layout. */
import { WORKSPACE_LAYOUT_PATH, WorkspaceLayoutSchema, WorkspaceLayoutUpdateSchema } from '@dart/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { WorkspaceService } from './workspace.service';

export function registerWorkspaceRoutes(app: FastifyInstance, workspace: WorkspaceService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // A layout is the user's own screen: every signed-in role may read and save its own, view-only users included.
  r.get(
    WORKSPACE_LAYOUT_PATH,
    {
      config: { policy: { kind: 'authenticated' } },
      schema: { tags: ['workspace'], summary: 'Own saved workspace layout', response: { 200: WorkspaceLayoutSchema } },
    },
    async (request) => workspace.layout(request.principal!),
  );

  r.put(
    WORKSPACE_LAYOUT_PATH,
    {
      config: { policy: { kind: 'authenticated' } },
      schema: {
        tags: ['workspace'],
        summary: 'Save own workspace layout (replaces it; at most 64 KB)',
        body: WorkspaceLayoutUpdateSchema,
        response: { 200: WorkspaceLayoutSchema },
      },
    },
    async (request) => workspace.saveLayout(request.principal!, request.body.layout),
  );
}
