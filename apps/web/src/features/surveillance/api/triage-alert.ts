import {
  IDEMPOTENCY_KEY_HEADER,
  type SurveillanceAlertDetail,
  type SurveillanceAssign,
  type SurveillanceClose,
  type SurveillanceComment,
  type SurveillanceEscalate,
  type SurveillanceTriageAction,
} from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { alertKey } from './get-alert';
import { AUDIT_KEY } from './get-audit-entries';
import { ALERTS_KEY } from './get-alerts';

export interface TriageBodies {
  assign: SurveillanceAssign;
  comment: SurveillanceComment;
  escalate: SurveillanceEscalate;
  close: SurveillanceClose;
}

export interface TriageRequest<A extends SurveillanceTriageAction> {
  alertId: string;
  action: A;
  body: TriageBodies[A];
  /** One key per submit: a retry of the same submit is answered once. */
  idempotencyKey: string;
}

/** POST /api/surveillance/alerts/{id}/{assign|comment|escalate|close}/ → the alert as it is now. */
export function triageAlert<A extends SurveillanceTriageAction>({
  alertId,
  action,
  body,
  idempotencyKey,
}: TriageRequest<A>): Promise<SurveillanceAlertDetail> {
  return http.post<SurveillanceAlertDetail>(`/api/surveillance/alerts/${encodeURIComponent(alertId)}/${action}/`, body, {
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });
}

/** A triage step: its answer replaces the open detail at once; the lists (status, assignee) and the trail are refetched. */
export function useTriageAlert<A extends SurveillanceTriageAction>() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TriageRequest<A>) => triageAlert(request),
    onSuccess: (alert) => {
      queryClient.setQueryData(alertKey(alert.id), alert);
      void queryClient.invalidateQueries({ queryKey: [...ALERTS_KEY, 'list'] });
      // Each step is audited: the trail below shows it.
      void queryClient.invalidateQueries({ queryKey: AUDIT_KEY });
    },
  });
}
