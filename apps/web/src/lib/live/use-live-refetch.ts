/**
 * Refetches a feature's queries when the live socket says its data changed: every event of `topics` (and a
 * reconnect after being offline, when an event may have been missed) invalidates `queryKey`. Events come in
 * bursts (one per side, state or firm), so they are gathered for a moment and the queries load once; a load on
 * its way may predate the event, and the refetch replaces it.
 */
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLiveEvents } from './live-provider';

const GATHER_MS = 250;

export function useLiveRefetch(topics: readonly string[], queryKey: QueryKey): void {
  const queryClient = useQueryClient();
  const timer = useRef<number | null>(null);
  const refresh = () => {
    if (timer.current !== null) return;
    timer.current = window.setTimeout(() => {
      timer.current = null;
      void queryClient.invalidateQueries({ queryKey });
    }, GATHER_MS);
  };
  useEffect(
    () => () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    },
    [],
  );
  useLiveEvents((event) => {
    if (topics.includes(event.topic)) refresh();
  }, refresh);
}
