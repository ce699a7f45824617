import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { InventoryGridProps } from './inventory-grid';

// AG Grid is large: it loads with the book, not with the app.
const InventoryGrid = lazy(() => import('./inventory-grid').then((module) => ({ default: module.InventoryGrid })));

export function LazyInventoryGrid(props: InventoryGridProps) {
  return (
    <Suspense fallback={<Skeleton height={420} radius="sm" aria-label="Loading the book" />}>
      <InventoryGrid {...props} />
    </Suspense>
  );
}
