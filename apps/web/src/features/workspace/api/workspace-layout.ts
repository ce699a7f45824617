/** GET and PUT api/workspace/layout/: the signed-in user's saved dock layout (it follows them to another machine). */
import { WORKSPACE_LAYOUT_PATH, type WorkspaceLayout, type WorkspaceLayoutDocument } from '@dart/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

export const WORKSPACE_LAYOUT_KEY = ['workspace', 'layout'] as const;

export function getWorkspaceLayout(signal?: AbortSignal): Promise<WorkspaceLayout> {
  return http.get<WorkspaceLayout>(WORKSPACE_LAYOUT_PATH, signal ? { signal } : {});
}

export function saveWorkspaceLayout(layout: WorkspaceLayoutDocument): Promise<WorkspaceLayout> {
  return http.put<WorkspaceLayout>(WORKSPACE_LAYOUT_PATH, { layout }, { retries: 0 });
}

export const workspaceLayoutQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: [...WORKSPACE_LAYOUT_KEY, userId] as const,
    queryFn: ({ signal }) => getWorkspaceLayout(signal),
    // Read once per visit of the workspace: the saves of this tab keep the cache current.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
    retry: false,
  });

export function useWorkspaceLayout(userId: string) {
  return useQuery(workspaceLayoutQueryOptions(userId));
}

export function useSaveWorkspaceLayout(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveWorkspaceLayout,
    onSuccess: (saved) => queryClient.setQueryData(workspaceLayoutQueryOptions(userId).queryKey, saved),
  });
}
