import type { ORDER_EXPORT_FORMATS } from '@dart/contracts';
import type { OrderQuery } from '../utils/order-filters';
import { fetchFile, saveFile } from '../../../lib/download';

export type OrderExportFormat = (typeof ORDER_EXPORT_FORMATS)[number];

const ACCEPT: Record<OrderExportFormat, string> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** GET api/orders/unified/export/?format=csv|xlsx with the blotter's filters (no page): saved as the server names it. */
export async function exportOrders(query: OrderQuery, format: OrderExportFormat): Promise<void> {
  const params = new URLSearchParams({ format });
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
  saveFile(
    await fetchFile(`/api/orders/unified/export/?${params.toString()}`, {
      accept: ACCEPT[format],
      fallbackName: `dart-transactions.${format}`,
    }),
  );
}
