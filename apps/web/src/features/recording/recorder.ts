/**
 * The recorder: loaded with a dynamic import only when the server has recording on (it pulls in rrweb). It starts a
 * recording, gathers rrweb's events with every input masked (utils/masking.ts), and uploads them in numbered batches
 * every few seconds and when the page is hidden. A failed batch stays queued and goes with the next one under the
 * same number, so the server stores it once.
 */
import type { RecordingSettings } from '@dart/contracts';
import { record } from 'rrweb';
import { startRecording, uploadEvents } from './api/recorder-calls';
import { splitIntoChunks } from './utils/chunks';
import { MASKING_OPTIONS, scrubEvent } from './utils/masking';

export interface SessionRecorder {
  /** Stops recording and sends what is left (best effort). */
  stop(): Promise<void>;
}

interface Pending {
  seq: number;
  events: unknown[];
}

export async function startSessionRecorder(settings: RecordingSettings): Promise<SessionRecorder> {
  const { id } = await startRecording();
  let buffer: unknown[] = [];
  const queue: Pending[] = [];
  let nextSeq = 0;
  let stopped = false;
  let sending: Promise<void> | null = null;

  function enqueueBuffer(): void {
    if (buffer.length === 0) return;
    const { chunks } = splitIntoChunks(buffer, { maxBytes: settings.chunk_max_bytes, maxEvents: settings.chunk_max_events });
    buffer = [];
    for (const events of chunks) queue.push({ seq: nextSeq++, events });
  }

  async function sendQueued(keepalive: boolean): Promise<void> {
    while (queue.length > 0) {
      const next = queue[0]!;
      const outcome = await uploadEvents(id, next.seq, next.events, { keepalive });
      if (outcome === 'retry') return;
      queue.shift();
      if (outcome === 'stop') {
        halt();
        return;
      }
    }
  }

  function flush(keepalive = false): Promise<void> {
    enqueueBuffer();
    // One upload at a time, in order: the page-hide flush joins the one in flight.
    sending ??= sendQueued(keepalive).finally(() => {
      sending = null;
    });
    return sending;
  }

  const stopRecording = record({
    ...MASKING_OPTIONS,
    emit(event) {
      if (!stopped) buffer.push(scrubEvent(event));
    },
    // Every keystroke is recorded (masked), so the replay shows typing; mouse moves and scrolls are sampled.
    // (rrweb's `input: 'last'` would listen to `change` only and miss a field still focused.)
    sampling: { mousemove: 100, scroll: 150 },
    // No scripts, module preloads, comments or head metadata: the replay runs no script, and the events are smaller.
    slimDOMOptions: 'all',
    recordCanvas: false,
    collectFonts: false,
    inlineImages: false,
    // A fresh full snapshot every 10 minutes keeps long sessions replayable from near any point.
    checkoutEveryNms: 10 * 60_000,
  });

  const interval = window.setInterval(() => void flush(), settings.flush_interval_ms);
  const onHide = () => {
    if (document.visibilityState === 'hidden') void flush(true);
  };
  const onPageHide = () => void flush(true);
  document.addEventListener('visibilitychange', onHide);
  window.addEventListener('pagehide', onPageHide);

  function halt(): void {
    if (stopped) return;
    stopped = true;
    stopRecording?.();
    window.clearInterval(interval);
    document.removeEventListener('visibilitychange', onHide);
    window.removeEventListener('pagehide', onPageHide);
    buffer = [];
  }

  return {
    async stop() {
      if (stopped) return;
      enqueueBuffer();
      halt();
      await flush(true);
    },
  };
}
