import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refreshKey } from './refresh-key';

/** A query observed like a mounted panel's, whose loads the test finishes by hand. */
function panel() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const loads: { signal: AbortSignal; finish: (value: number) => void }[] = [];
  const observer = new QueryObserver(queryClient, {
    queryKey: ['market', 'public-runs'],
    queryFn: ({ signal }) => new Promise<number>((resolve) => loads.push({ signal, finish: resolve })),
  });
  const unsubscribe = observer.subscribe(() => undefined);
  return { queryClient, loads, observer, unsubscribe };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('refreshing a key on a live event', () => {
  it('never aborts a load on its way, and loads once more after it for the events it may predate', async () => {
    const { queryClient, loads, observer, unsubscribe } = panel();
    await settle();
    expect(loads).toHaveLength(1);
    // Three quote events while the panel's first load runs.
    refreshKey(queryClient, ['market', 'public-runs']);
    refreshKey(queryClient, ['market']);
    refreshKey(queryClient, ['market', 'public-runs']);
    await settle();
    expect(loads[0]!.signal.aborted).toBe(false);
    expect(loads).toHaveLength(1);
    loads[0]!.finish(1);
    await settle();
    // One more load (not three) for what happened during the first.
    expect(loads).toHaveLength(2);
    expect(loads[1]!.signal.aborted).toBe(false);
    loads[1]!.finish(2);
    await settle();
    expect(observer.getCurrentResult().data).toBe(2);
    unsubscribe();
  });

  it('refetches an idle key at once', async () => {
    const { queryClient, loads, observer, unsubscribe } = panel();
    await settle();
    loads[0]!.finish(1);
    await settle();
    refreshKey(queryClient, ['market', 'public-runs']);
    await settle();
    expect(loads).toHaveLength(2);
    loads[1]!.finish(5);
    await settle();
    expect(observer.getCurrentResult().data).toBe(5);
    unsubscribe();
  });
});
