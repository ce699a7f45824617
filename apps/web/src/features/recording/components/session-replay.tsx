import { RECORDING_MESSAGES, type RecordedEvent } from '@dart/contracts';
import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';

type Player = { play(offset?: number): void; pause(): void; destroy(): void };

/**
 * Replays a recording with rrweb's Replayer, loaded on demand (only this page pulls it in). The player's frame is
 * marked `data-private`, so an ops admin's own recorded session does not record the replay it watches.
 */
export function SessionReplay({ events }: { events: readonly RecordedEvent[] }) {
  const container = useRef<HTMLDivElement>(null);
  const player = useRef<Player | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [playing, setPlaying] = useState(false);

  useEffect(() => {
    if (events.length < 2 || !container.current) return undefined;
    let cancelled = false;
    const root = container.current;
    setState('loading');
    void import('rrweb')
      .then(({ Replayer }) => {
        if (cancelled) return;
        root.replaceChildren();
        const replayer = new Replayer(events as never, { root, mouseTail: false, showWarning: false, UNSAFE_replayCanvas: false });
        replayer.on('finish', () => setPlaying(false));
        player.current = replayer;
        setState('ready');
        replayer.play();
        setPlaying(true);
      })
      .catch(() => {
        if (!cancelled) setState('failed');
      });
    return () => {
      cancelled = true;
      player.current?.destroy();
      player.current = null;
      setPlaying(false);
    };
  }, [events]);

  if (events.length < 2) return <Text c="dimmed">{RECORDING_MESSAGES.replayEmpty}</Text>;
  return (
    <>
      <Group gap="sm" mb="sm">
        <Button
          size="xs"
          disabled={state !== 'ready'}
          onClick={() => {
            if (playing) player.current?.pause();
            else player.current?.play();
            setPlaying(!playing);
          }}
        >
          {playing ? 'Pause' : 'Play'}
        </Button>
        <Button
          size="xs"
          variant="default"
          disabled={state !== 'ready'}
          onClick={() => {
            player.current?.play(0);
            setPlaying(true);
          }}
        >
          Restart
        </Button>
        {state === 'loading' ? <Loader size="xs" /> : null}
      </Group>
      {state === 'failed' ? <Alert color="red">The player could not be loaded. Reload the page to try again.</Alert> : null}
      <div
        ref={container}
        data-private=""
        data-testid="session-replay"
        aria-label="Session replay"
        style={{ overflow: 'auto', maxWidth: '100%', border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
      />
    </>
  );
}
