import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/support/requests/ {kind: 'report_issue', message, page} (signed in). */
export function reportIssue(message: string, page: string) {
  return api.requestSupport('report_issue', message, page);
}

export function useReportIssue() {
  return useMutation({ mutationFn: ({ message, page }: { message: string; page: string }) => reportIssue(message, page) });
}
