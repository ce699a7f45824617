import type { ContactForm } from '@dart/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/contact/ (public). */
export function sendContactMessage(body: ContactForm) {
  return api.contact(body);
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
