/**
 * Spec §4–§9: every 10 minutes, the direct channels visible in the list (IntersectionObserver,
 * threshold 0.1) are refreshed from `GET api/chat/channels/{url}/`, in batches of 5 with a 1-minute
 * pause between batches, and patched into the channel list cache.
 */
import { CHAT_LIMITS } from '@dart/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type RefObject } from 'react';
import { getChannel } from '../api/get-channel';
import { upsertChannel } from '../utils/chat-cache';

/** Marks list rows to watch: `data-channel-url` on every row, `data-direct` on direct channels. */
export const CHANNEL_ROW_SELECTOR = '[data-channel-url][data-direct="true"]';

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
}

export function useVisibleChannelRefresh(container: RefObject<HTMLElement | null>, rowsVersion: string, enabled: boolean): void {
  const queryClient = useQueryClient();
  // Read through a ref: the refresh loop must not restart when the client object is re-created.
  const queryClientRef = useRef(queryClient);
  const visible = useRef(new Set<string>());

  useEffect(() => {
    queryClientRef.current = queryClient;
  }, [queryClient]);

  // Track which direct rows are on screen.
  useEffect(() => {
    const root = container.current;
    if (!enabled || !root || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const url = (entry.target as HTMLElement).dataset.channelUrl;
          if (!url) continue;
          if (entry.isIntersecting) visible.current.add(url);
          else visible.current.delete(url);
        }
      },
      { root, threshold: CHAT_LIMITS.channelVisibilityThreshold },
    );
    visible.current.clear();
    // Rows change with the list: `rowsVersion` re-runs this to observe the new ones.
    if (rowsVersion === '') return () => observer.disconnect();
    for (const row of root.querySelectorAll(CHANNEL_ROW_SELECTOR)) observer.observe(row);
    return () => observer.disconnect();
  }, [container, rowsVersion, enabled]);

  // The periodic refresh, in batches with pauses.
  useEffect(() => {
    if (!enabled) return undefined;
    let cancelled = false;
    const pauses = new Set<ReturnType<typeof setTimeout>>();
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          pauses.delete(timer);
          resolve();
        }, ms);
        pauses.add(timer);
      });
    let running = false;
    const refresh = async () => {
      if (running) return;
      running = true;
      try {
        const batches = chunk([...visible.current], CHAT_LIMITS.channelRefreshBatchSize);
        for (const [index, batch] of batches.entries()) {
          if (cancelled) return;
          if (index > 0) await pause(CHAT_LIMITS.channelRefreshBatchPauseMs);
          const channels = await Promise.allSettled(batch.map((url) => getChannel(url)));
          if (cancelled) return;
          for (const result of channels) if (result.status === 'fulfilled') upsertChannel(queryClientRef.current, result.value);
        }
      } finally {
        running = false;
      }
    };
    const interval = setInterval(() => void refresh(), CHAT_LIMITS.channelRefreshIntervalMs);
    return () => {
      cancelled = true;
      clearInterval(interval);
      for (const timer of pauses) clearTimeout(timer);
    };
  }, [enabled]);
}
