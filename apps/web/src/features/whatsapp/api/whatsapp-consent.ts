import type { WhatsAppConsent, WhatsAppConsentUpdate } from '@dart/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';

const CONSENT_PATH = '/api/whatsapp/consent/';

/** GET api/whatsapp/consent/: the caller's own consent as it stands (source, time), `has_mobile`, and its history. */
export function getWhatsAppConsent(): Promise<WhatsAppConsent> {
  return http.get<WhatsAppConsent>(CONSENT_PATH);
}

/** PUT api/whatsapp/consent/: given or withdrawn from the profile; a withdrawal stops every message not yet sent. */
export function setWhatsAppConsent(body: WhatsAppConsentUpdate): Promise<WhatsAppConsent> {
  return http.put<WhatsAppConsent>(CONSENT_PATH, body);
}

/** Keyed by user: a second user signing in on the same browser never sees the first one's answer. */
export const whatsAppConsentQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['whatsapp', 'consent', userId] as const, queryFn: getWhatsAppConsent, staleTime: 30_000 });

export function useWhatsAppConsent(userId: string) {
  return useQuery(whatsAppConsentQueryOptions(userId));
}

/** The answer the server gives back is the standing one: it replaces the cached copy at once. */
export function useSetWhatsAppConsent(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setWhatsAppConsent,
    onSuccess: (saved) => queryClient.setQueryData(whatsAppConsentQueryOptions(userId).queryKey, saved),
  });
}
