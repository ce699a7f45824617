/** Toast sounds: synthesised error, success and notification tones, muted by the user's display preference. */
export { playSound, prepareSounds, createSoundPlayer, SOUND_REPEAT_GAP_MS } from './sounds';
export type { SoundPlayer, SoundEnvironment, AudioContextLike } from './sounds';
export { SOUNDS, soundLengthMs } from './tones';
export type { SoundKind, Tone } from './tones';
