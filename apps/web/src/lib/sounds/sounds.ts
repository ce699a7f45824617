/**
 * Plays the toast sounds (lib/sounds/tones.ts) with the Web Audio API, within the browser's autoplay
 * rules: nothing is created or played before the user's first gesture on the page (a click or a key),
 * and a blocked or missing audio device is silent, never an exception or a console error. The user's
 * mute (display preference `sounds_enabled`) is read at play time.
 *
 * Every sound played is counted on <html data-dart-sounds-played="n" data-dart-last-sound="kind">, so a
 * test in a real browser can tell a played sound from a muted one without hearing it.
 */
import { getDisplayPreferences } from '../display-preferences';
import { SOUNDS, type SoundKind } from './tones';

/** The part of AudioContext we use (a fake one in unit tests). */
export type AudioContextLike = Pick<AudioContext, 'state' | 'currentTime' | 'destination' | 'createOscillator' | 'createGain' | 'resume'>;

export interface SoundEnvironment {
  /** A new audio context, or null where the browser has none. May throw; that is silence. */
  createContext: () => AudioContextLike | null;
  /** Whether the user has interacted with the page (autoplay is allowed from then on). */
  hasUserGesture: () => boolean;
  isMuted: () => boolean;
  /** Milliseconds, monotonic. */
  now: () => number;
  /** Told of every sound played, with the running count. */
  report: (kind: SoundKind, played: number) => void;
}

/** The same sound twice within this many ms plays once (a burst of ten error toasts is one error sound). */
export const SOUND_REPEAT_GAP_MS = 150;

export interface SoundPlayer {
  /** Plays a sound if allowed; true when it was scheduled. Never throws. */
  play: (kind: SoundKind) => boolean;
  /** Creates and resumes the audio context; call it inside a user gesture. Never throws. */
  unlock: () => void;
  readonly played: number;
}

export function createSoundPlayer(env: SoundEnvironment): SoundPlayer {
  let context: AudioContextLike | null = null;
  let played = 0;
  const lastPlayedAt: Partial<Record<SoundKind, number>> = {};

  function ensureContext(): AudioContextLike | null {
    if (context && (context.state as string) !== 'closed') return context;
    try {
      context = env.createContext();
    } catch {
      context = null;
    }
    return context;
  }

  function resume(audio: AudioContextLike): void {
    if (audio.state !== 'suspended') return;
    try {
      // A refused resume (no gesture yet, no device) only means silence.
      void audio.resume().catch(() => undefined);
    } catch {
      // Older engines throw synchronously instead.
    }
  }

  return {
    get played() {
      return played;
    },
    unlock() {
      if (env.isMuted()) return;
      const audio = ensureContext();
      if (audio) resume(audio);
    },
    play(kind) {
      if (env.isMuted() || !env.hasUserGesture()) return false;
      const now = env.now();
      const last = lastPlayedAt[kind];
      if (last !== undefined && now - last < SOUND_REPEAT_GAP_MS) return false;
      const audio = ensureContext();
      if (!audio) return false;
      try {
        resume(audio);
        const start = audio.currentTime + 0.01;
        for (const tone of SOUNDS[kind]) {
          const begin = start + tone.startMs / 1000;
          const end = begin + tone.durationMs / 1000;
          const oscillator = audio.createOscillator();
          const gain = audio.createGain();
          oscillator.type = tone.wave;
          oscillator.frequency.setValueAtTime(tone.frequencyHz, begin);
          // A 10 ms attack and an exponential decay: no clicks at either end.
          gain.gain.setValueAtTime(0.0001, begin);
          gain.gain.exponentialRampToValueAtTime(tone.peakGain, begin + 0.01);
          gain.gain.exponentialRampToValueAtTime(0.0001, end);
          oscillator.connect(gain);
          gain.connect(audio.destination);
          oscillator.start(begin);
          oscillator.stop(end + 0.02);
        }
      } catch {
        return false;
      }
      lastPlayedAt[kind] = now;
      played += 1;
      env.report(kind, played);
      return true;
    },
  };
}

type AudioContextConstructor = new () => AudioContext;

function browserEnvironment(): SoundEnvironment {
  let gestureSeen = false;
  const markGesture = () => {
    gestureSeen = true;
  };
  window.addEventListener('pointerdown', markGesture, { capture: true, passive: true });
  window.addEventListener('keydown', markGesture, { capture: true, passive: true });
  return {
    createContext: () => {
      const Constructor = (window.AudioContext ??
        (window as unknown as { webkitAudioContext?: AudioContextConstructor }).webkitAudioContext) as AudioContextConstructor | undefined;
      return Constructor ? new Constructor() : null;
    },
    hasUserGesture: () => navigator.userActivation?.hasBeenActive ?? gestureSeen,
    isMuted: () => !getDisplayPreferences().sounds_enabled,
    now: () => performance.now(),
    report: (kind, count) => {
      document.documentElement.dataset.dartSoundsPlayed = String(count);
      document.documentElement.dataset.dartLastSound = kind;
    },
  };
}

let browserPlayer: SoundPlayer | null = null;

/** The page's player, created on first use; its audio context waits for the first gesture. */
function getBrowserPlayer(): SoundPlayer | null {
  if (typeof window === 'undefined') return null;
  if (!browserPlayer) {
    const player = createSoundPlayer(browserEnvironment());
    browserPlayer = player;
    // Resume inside the first gesture so the first toast after it is heard.
    const unlock = () => {
      player.unlock();
      window.removeEventListener('pointerdown', unlock, true);
      window.removeEventListener('keydown', unlock, true);
    };
    window.addEventListener('pointerdown', unlock, { capture: true, passive: true });
    window.addEventListener('keydown', unlock, { capture: true, passive: true });
  }
  return browserPlayer;
}

/** Plays a toast sound unless muted or before the user's first gesture; silent on any audio failure. */
export function playSound(kind: SoundKind): boolean {
  return getBrowserPlayer()?.play(kind) ?? false;
}

/** Starts listening for the first gesture (call once at start-up, so a toast soon after it is heard). */
export function prepareSounds(): void {
  getBrowserPlayer();
}
