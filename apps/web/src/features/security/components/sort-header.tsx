import { Table, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';

export interface SortState<F extends string> {
  field: F;
  direction: 'asc' | 'desc';
}

/** A sortable column header: a button that cycles ascending/descending, with aria-sort. */
export function SortHeader<F extends string>({
  field,
  sort,
  onSort,
  children,
  align,
}: {
  field: F;
  sort: SortState<F> | undefined;
  onSort: (next: SortState<F>) => void;
  children: ReactNode;
  align?: 'right';
}) {
  const active = sort?.field === field;
  return (
    <Table.Th ta={align} aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton fw={600} fz="sm" onClick={() => onSort({ field, direction: active && sort.direction === 'asc' ? 'desc' : 'asc' })}>
        {children} {active ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
      </UnstyledButton>
    </Table.Th>
  );
}
