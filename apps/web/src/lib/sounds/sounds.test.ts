import { describe, expect, it } from 'vitest';
import { createSoundPlayer, SOUND_REPEAT_GAP_MS, type AudioContextLike, type SoundEnvironment } from './sounds';
import { SOUNDS, soundLengthMs, type SoundKind } from './tones';

interface FakeAudio {
  context: AudioContextLike;
  started: Array<{ frequencyHz: number; at: number }>;
  resumes: number;
}

function fakeAudio(state: AudioContextState = 'running', resume: () => Promise<void> = () => Promise.resolve()): FakeAudio {
  const fake: FakeAudio = { started: [], resumes: 0, context: undefined as unknown as AudioContextLike };
  const param = () => ({ setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined });
  fake.context = {
    state,
    currentTime: 5,
    destination: {} as AudioDestinationNode,
    resume: () => {
      fake.resumes += 1;
      return resume();
    },
    createGain: () => ({ gain: param(), connect: () => undefined }) as unknown as GainNode,
    createOscillator: () => {
      let frequencyHz = 0;
      return {
        type: 'sine',
        frequency: { ...param(), setValueAtTime: (value: number) => (frequencyHz = value) },
        connect: () => undefined,
        start: (at: number) => fake.started.push({ frequencyHz, at }),
        stop: () => undefined,
      } as unknown as OscillatorNode;
    },
  };
  return fake;
}

function environment(overrides: Partial<SoundEnvironment> & { audio?: FakeAudio } = {}) {
  const reports: Array<[SoundKind, number]> = [];
  let clock = 1000;
  let created = 0;
  const state = { muted: false, gesture: true };
  const env: SoundEnvironment = {
    createContext: () => {
      created += 1;
      return (overrides.audio ?? fakeAudio()).context;
    },
    hasUserGesture: () => state.gesture,
    isMuted: () => state.muted,
    now: () => clock,
    report: (kind, count) => reports.push([kind, count]),
    ...overrides,
  };
  return {
    env,
    reports,
    state,
    created: () => created,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe('toast sounds', () => {
  it('defines short, distinct error, success and notification sounds', () => {
    const first = (kind: SoundKind) => SOUNDS[kind][0]!.frequencyHz;
    expect(new Set([first('error'), first('success'), first('notification')]).size).toBe(3);
    for (const kind of ['error', 'success', 'notification'] as const) expect(soundLengthMs(kind)).toBeLessThanOrEqual(400);
  });

  it('plays every tone of a sound and reports the running count', () => {
    const audio = fakeAudio();
    const t = environment({ audio });
    const player = createSoundPlayer(t.env);
    expect(player.play('success')).toBe(true);
    expect(audio.started.map((tone) => tone.frequencyHz)).toEqual(SOUNDS.success.map((tone) => tone.frequencyHz));
    expect(audio.started[1]!.at - audio.started[0]!.at).toBeCloseTo(SOUNDS.success[1]!.startMs / 1000, 6);
    t.advance(1000);
    expect(player.play('error')).toBe(true);
    expect(t.reports).toEqual([
      ['success', 1],
      ['error', 2],
    ]);
    expect(player.played).toBe(2);
  });

  it('plays nothing while muted, and plays again once unmuted', () => {
    const audio = fakeAudio();
    const t = environment({ audio });
    const player = createSoundPlayer(t.env);
    t.state.muted = true;
    expect(player.play('error')).toBe(false);
    expect(player.play('notification')).toBe(false);
    player.unlock();
    expect(t.created()).toBe(0);
    expect(audio.started).toEqual([]);
    expect(t.reports).toEqual([]);
    t.state.muted = false;
    expect(player.play('notification')).toBe(true);
    expect(t.reports).toEqual([['notification', 1]]);
  });

  it("creates no audio before the user's first gesture (autoplay rules)", () => {
    const t = environment();
    const player = createSoundPlayer(t.env);
    t.state.gesture = false;
    expect(player.play('success')).toBe(false);
    expect(t.created()).toBe(0);
    t.state.gesture = true;
    expect(player.play('success')).toBe(true);
    expect(t.created()).toBe(1);
  });

  it('is silent, never throwing, when audio is missing, refused or broken', async () => {
    expect(createSoundPlayer(environment({ createContext: () => null }).env).play('error')).toBe(false);
    expect(
      createSoundPlayer(
        environment({
          createContext: () => {
            throw new Error('NotAllowedError');
          },
        }).env,
      ).play('error'),
    ).toBe(false);
    // A suspended context whose resume is refused: asked once, the rejection swallowed.
    const refused = fakeAudio('suspended', () => Promise.reject(new Error('NotAllowedError')));
    const t = environment({ audio: refused });
    expect(() => createSoundPlayer(t.env).play('error')).not.toThrow();
    expect(refused.resumes).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const broken = fakeAudio();
    broken.context.createOscillator = () => {
      throw new Error('InvalidStateError');
    };
    const b = environment({ audio: broken });
    expect(createSoundPlayer(b.env).play('notification')).toBe(false);
    expect(b.reports).toEqual([]);
  });

  it('plays a burst of the same sound once, a different sound at once', () => {
    const t = environment();
    const player = createSoundPlayer(t.env);
    expect(player.play('error')).toBe(true);
    expect(player.play('error')).toBe(false);
    expect(player.play('success')).toBe(true);
    t.advance(SOUND_REPEAT_GAP_MS);
    expect(player.play('error')).toBe(true);
    expect(player.played).toBe(3);
  });
});
