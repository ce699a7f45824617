/**
 * Chat sounds (spec trading §4, §8, §9), synthesised with the Web Audio API rather than shipped as
 * binaries: a notification ping, success and error cues for toasts, and the buzz (2000 ms).
 * Browsers start audio only after a user gesture; until then, and where Web Audio is missing, the
 * sounds are silently skipped.
 */
import { CHAT_LIMITS } from '@dart/contracts';

export type ChatSound = 'notification' | 'success' | 'error' | 'buzz';

interface Tone {
  /** Hz */
  frequency: number;
  /** Seconds from the start of the sound. */
  at: number;
  /** Seconds. */
  duration: number;
  type?: OscillatorType;
  gain?: number;
}

const SOUNDS: Record<ChatSound, readonly Tone[]> = {
  // Two soft rising pings.
  notification: [
    { frequency: 880, at: 0, duration: 0.12 },
    { frequency: 1320, at: 0.13, duration: 0.16 },
  ],
  // A short major third up.
  success: [
    { frequency: 660, at: 0, duration: 0.1 },
    { frequency: 830, at: 0.1, duration: 0.18 },
  ],
  // A low double beep.
  error: [
    { frequency: 220, at: 0, duration: 0.14, type: 'square', gain: 0.06 },
    { frequency: 196, at: 0.18, duration: 0.2, type: 'square', gain: 0.06 },
  ],
  // A rattling buzz for the whole buzz duration: 8 pulses alternating pitch.
  buzz: Array.from({ length: 8 }, (_, i) => ({
    frequency: i % 2 === 0 ? 150 : 120,
    at: (i * CHAT_LIMITS.buzzDurationMs) / 8 / 1000,
    duration: CHAT_LIMITS.buzzDurationMs / 8 / 1000 - 0.03,
    type: 'sawtooth' as const,
    gain: 0.05,
  })),
};

let context: AudioContext | null = null;

function audioContext(): AudioContext | null {
  if (context) return context;
  const Ctor = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!Ctor) return null;
  try {
    context = new Ctor();
  } catch {
    return null;
  }
  return context;
}

/** Plays a chat sound; never throws. */
export function playChatSound(sound: ChatSound): void {
  const ctx = audioContext();
  if (!ctx) return;
  try {
    if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
    const start = ctx.currentTime + 0.01;
    for (const tone of SOUNDS[sound]) {
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.type = tone.type ?? 'sine';
      oscillator.frequency.value = tone.frequency;
      const peak = tone.gain ?? 0.08;
      const t0 = start + tone.at;
      // A short attack and release so the tones do not click.
      gain.gain.setValueAtTime(0, t0);
      gain.gain.linearRampToValueAtTime(peak, t0 + 0.01);
      gain.gain.setValueAtTime(peak, t0 + Math.max(0.01, tone.duration - 0.03));
      gain.gain.linearRampToValueAtTime(0, t0 + tone.duration);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(t0);
      oscillator.stop(t0 + tone.duration + 0.01);
    }
  } catch {
    // Audio is a nicety: never let it break chat.
  }
}

/** The sound's total length in milliseconds (the buzz lasts `buzzDurationMs`). */
export function chatSoundDurationMs(sound: ChatSound): number {
  return Math.round(Math.max(...SOUNDS[sound].map((tone) => tone.at + tone.duration)) * 1000);
}
