import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { RunsGridProps } from './runs-grid';

// AG Grid is large: it loads with the first blotter, not with the app.
const RunsGrid = lazy(() => import('./runs-grid').then((module) => ({ default: module.RunsGrid })));

export function LazyRunsGrid(props: RunsGridProps) {
  return (
    <Suspense
      fallback={
        <Skeleton height={props.height === 'fill' ? 140 : (props.height ?? 360)} radius="sm" aria-label={`Loading ${props.label}`} />
      }
    >
      <RunsGrid {...props} />
    </Suspense>
  );
}
