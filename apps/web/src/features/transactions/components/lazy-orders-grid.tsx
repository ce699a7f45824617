import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { OrdersGridProps } from './orders-grid';

// AG Grid is large: it loads with the blotter, not with the app.
const OrdersGrid = lazy(() => import('./orders-grid').then((module) => ({ default: module.OrdersGrid })));

export function LazyOrdersGrid(props: OrdersGridProps) {
  return (
    <Suspense fallback={<Skeleton height={420} radius="sm" aria-label="Loading the blotter" />}>
      <OrdersGrid {...props} />
    </Suspense>
  );
}
