import { Alert, Button, EmptyState, Skeleton, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { AlertIcon, SearchIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';

interface Message {
  title: string;
  description: string;
}

export interface ListStatesProps {
  /** The list's query: its error, whether it has an answer yet, and a retry. */
  query: { isError: boolean; error: unknown; refetch: () => unknown };
  /** False while the filters are invalid: their fields say why, the list shows nothing. */
  valid: boolean;
  hasData: boolean;
  isEmpty: boolean;
  /** Whether filters or a search narrowed the list (an empty answer is "no match", not "none yet"). */
  narrowed: boolean;
  errorTitle: string;
  noMatch: Message;
  none: Message & { icon: ReactNode };
  skeletonRows: number;
  skeletonHeight: number;
  /** The list itself, when there is something to show. */
  children: ReactNode;
}

/** The states the surveillance lists share: error with Try again, loading rows, no match, none yet, or the list. */
export function ListStates({
  query,
  valid,
  hasData,
  isEmpty,
  narrowed,
  errorTitle,
  noMatch,
  none,
  skeletonRows,
  skeletonHeight,
  children,
}: ListStatesProps) {
  if (query.isError)
    return (
      <Alert mx="lg" mb="lg" color="red" variant="light" icon={<AlertIcon />} title={errorTitle} role="alert">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{describeError(query.error)}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  if (!valid) return null;
  if (!hasData)
    return (
      <Stack px="lg" pb="lg" gap="xs" aria-busy="true">
        {Array.from({ length: skeletonRows }, (_, index) => (
          <Skeleton key={index} height={skeletonHeight} />
        ))}
      </Stack>
    );
  if (isEmpty)
    return narrowed ? (
      <EmptyState py="xl" icon={<SearchIcon size={28} />} withIndicatorBackground title={noMatch.title} description={noMatch.description} />
    ) : (
      <EmptyState py="xl" icon={none.icon} withIndicatorBackground title={none.title} description={none.description} />
    );
  return <>{children}</>;
}
