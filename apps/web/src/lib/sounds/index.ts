/** The app's sounds (toasts and chat): synthesised tones, muted by the user's display preference, one player per page. */
export { playSound, prepareSounds, createSoundPlayer, SOUND_REPEAT_GAP_MS } from './sounds';
export type { SoundPlayer, SoundEnvironment, AudioContextLike } from './sounds';
export { SOUNDS, soundLengthMs } from './tones';
export type { SoundKind, Tone } from './tones';
