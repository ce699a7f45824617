/**
 * The book's writes (README "Calls" of the server module): the valuation cost, an external trade, an offer and the
 * daily confirmation. Each carries its own Idempotency-Key (a retry of the same submit reuses it), and every
 * success refetches the book.
 */
import {
  IDEMPOTENCY_KEY_HEADER,
  type ConfirmPreviousResultSchema,
  type EditValuationCostSchema,
  type ExternalTradeSchema,
  type InventoryMovement,
  type InventoryOfferSchema,
  type Position,
  type Quote,
} from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../../lib/api-client';
import { INVENTORY_KEY } from './get-inventory';

const headers = (key: string) => ({ headers: { [IDEMPOTENCY_KEY_HEADER]: key } });

export type EditValuationCostBody = z.input<typeof EditValuationCostSchema>;
export type ExternalTradeBody = z.input<typeof ExternalTradeSchema>;
export type OfferBody = z.input<typeof InventoryOfferSchema>;
export type ConfirmPreviousResult = z.infer<typeof ConfirmPreviousResultSchema>;

/** PUT /api/inventory/edit-valuation-cost/ → the valued holding. */
export const editValuationCost = (body: EditValuationCostBody, key: string) =>
  http.put<Position>('/api/inventory/edit-valuation-cost/', body, headers(key));

/** POST api/inventory/external-trade/ → the movement and the valued holding after it. */
export const recordExternalTrade = (body: ExternalTradeBody, key: string) =>
  http.post<InventoryMovement>('/api/inventory/external-trade/', body, headers(key));

/** POST /api/inventory/offer/ → the market's quote (a public run, a private run or an exchange RFQ). */
export const offerHolding = (body: OfferBody, key: string) => http.post<Quote>('/api/inventory/offer/', body, headers(key));

/** PUT api/inventory/confirm-previous/ {book_date}: carries the reviewed book forward to today. */
export const confirmPrevious = (bookDate: string, key: string) =>
  http.put<ConfirmPreviousResult>('/api/inventory/confirm-previous/', { book_date: bookDate }, headers(key));

/** A write to the book: the book (and its cash flows) refetch after it. */
export function useBookMutation<TVariables, TResult>(fn: (variables: TVariables, key: string) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ variables, key }: { variables: TVariables; key: string }) => fn(variables, key),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: INVENTORY_KEY }),
  });
}
