import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type SupportKind = 'upgrade' | 'support' | 'report_issue';

/** POST /api/support/requests/ {kind, message, page}: raises a support ticket (signed in). */
export function createSupportRequest(kind: SupportKind, message: string, page?: string) {
  return api.requestSupport(kind, message, page);
}

export function useCreateSupportRequest() {
  return useMutation({
    mutationFn: ({ kind, message, page }: { kind: SupportKind; message: string; page?: string }) =>
      createSupportRequest(kind, message, page),
  });
}
