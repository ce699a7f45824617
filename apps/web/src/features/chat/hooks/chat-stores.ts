/**
 * Small external stores of the chat provider for state that is not server data: who is typing
 * per channel, and the buzz animation per channel (idle → started → finished after 2 s, spec §4).
 */
import { CHAT_LIMITS } from '@dart/contracts';
import { playSound } from '../../../lib/sounds';

type Listener = () => void;

export interface Typist {
  userId: string;
  nickname: string;
}

export function createTypingStore(timeoutMs: number = CHAT_LIMITS.typingTimeoutMs) {
  const byChannel = new Map<string, readonly Typist[]>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const listeners = new Set<Listener>();
  const EMPTY: readonly Typist[] = [];
  const notify = () => listeners.forEach((listener) => listener());

  function set(channelUrl: string, typist: Typist, typing: boolean) {
    const key = `${channelUrl}\u0000${typist.userId}`;
    const timer = timers.get(key);
    if (timer) clearTimeout(timer);
    timers.delete(key);
    const others = (byChannel.get(channelUrl) ?? EMPTY).filter((item) => item.userId !== typist.userId);
    byChannel.set(channelUrl, typing ? [...others, typist] : others);
    // A lost "stopped typing" must not leave the indicator on for ever.
    if (typing)
      timers.set(
        key,
        setTimeout(() => set(channelUrl, typist, false), timeoutMs),
      );
    notify();
  }

  return {
    set,
    get: (channelUrl: string): readonly Typist[] => byChannel.get(channelUrl) ?? EMPTY,
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      byChannel.clear();
      notify();
    },
  };
}
export type TypingStore = ReturnType<typeof createTypingStore>;

export type BuzzState = 'idle' | 'started' | 'finished';

export function createBuzzStore(durationMs: number = CHAT_LIMITS.buzzDurationMs) {
  const states = new Map<string, BuzzState>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const listeners = new Set<Listener>();
  const notify = () => listeners.forEach((listener) => listener());

  return {
    /** Starts the buzz of a channel (with its sound); it finishes `durationMs` later. */
    start(channelUrl: string) {
      const timer = timers.get(channelUrl);
      if (timer) clearTimeout(timer);
      states.set(channelUrl, 'started');
      playSound('buzz');
      timers.set(
        channelUrl,
        setTimeout(() => {
          states.set(channelUrl, 'finished');
          timers.delete(channelUrl);
          notify();
        }, durationMs),
      );
      notify();
    },
    get: (channelUrl: string): BuzzState => states.get(channelUrl) ?? 'idle',
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
export type BuzzStore = ReturnType<typeof createBuzzStore>;
