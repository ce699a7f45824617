import type { Order } from '@dart/contracts';
import { contractNoteName, orderResource } from '../utils/order-format';
import { fetchFile, saveFile } from '../../../lib/download';

/**
 * GET api/orders/{id}/contract-note/ or api/procurement-orders/{id}/contract-note/ (each kind answers on its own
 * path): the trade's contract note (PDF, Indian format), saved as a file.
 */
export async function downloadContractNote(order: Pick<Order, 'id' | 'number' | 'kind'>): Promise<void> {
  const path = `/api/${orderResource(order.kind)}/${encodeURIComponent(order.id)}/contract-note/`;
  saveFile(await fetchFile(path, { accept: 'application/pdf', fallbackName: contractNoteName(order) }));
}
