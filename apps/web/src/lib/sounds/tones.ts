/**
 * The spec's sounds: the three toast sounds (trading §8: an error sound, a success sound, a notification
 * sound on a response) and chat's buzz (§4, `CHAT_LIMITS.buzzDurationMs` long). The spec names no files,
 * so they are synthesised with the Web Audio API: short, quiet and distinct, no downloads. Frequencies in
 * Hz, times and durations in milliseconds, gain 0-1 at the peak.
 */
import { CHAT_LIMITS } from '@dart/contracts';

export type SoundKind = 'error' | 'success' | 'notification' | 'buzz';

const BUZZ_PULSES = 8;

export interface Tone {
  frequencyHz: number;
  /** From the start of the sound. */
  startMs: number;
  durationMs: number;
  wave: OscillatorType;
  peakGain: number;
}

export const SOUNDS: Record<SoundKind, readonly Tone[]> = {
  // Two falling notes, a low E4 then C4 on a triangle wave: unmistakably "no".
  error: [
    { frequencyHz: 329.63, startMs: 0, durationMs: 140, wave: 'triangle', peakGain: 0.22 },
    { frequencyHz: 261.63, startMs: 150, durationMs: 220, wave: 'triangle', peakGain: 0.22 },
  ],
  // A rising major third, C6 then E6 on a sine: a light "done".
  success: [
    { frequencyHz: 1046.5, startMs: 0, durationMs: 110, wave: 'sine', peakGain: 0.16 },
    { frequencyHz: 1318.51, startMs: 100, durationMs: 180, wave: 'sine', peakGain: 0.16 },
  ],
  // One soft A5 bell with a long decay: something arrived.
  notification: [{ frequencyHz: 880, startMs: 0, durationMs: 320, wave: 'sine', peakGain: 0.14 }],
  // A rattle for the whole buzz: pulses alternating between two low pitches on a sawtooth.
  buzz: Array.from({ length: BUZZ_PULSES }, (_, i) => ({
    frequencyHz: i % 2 === 0 ? 150 : 120,
    startMs: (i * CHAT_LIMITS.buzzDurationMs) / BUZZ_PULSES,
    durationMs: CHAT_LIMITS.buzzDurationMs / BUZZ_PULSES - 30,
    wave: 'sawtooth' as const,
    peakGain: 0.05,
  })),
};

/** The whole sound's length, for tests and throttling. */
export function soundLengthMs(kind: SoundKind): number {
  return Math.max(...SOUNDS[kind].map((tone) => tone.startMs + tone.durationMs));
}
