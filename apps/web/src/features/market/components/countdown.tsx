import { Text } from '@mantine/core';
import { useNow } from '../../../lib/use-now';
import { countdownState } from '../utils/market-format';

export interface CountdownProps {
  /** ISO instant the validity ends. */
  until: string;
  size?: 'xs' | 'sm';
}

/** Time left to a quote's (or RFQ's) validity end, ticking each second; red under a minute, then 'Expired'. */
export function Countdown({ until, size = 'sm' }: CountdownProps) {
  const now = useNow();
  const { label, urgent, expired } = countdownState(until, now);
  return (
    <Text
      span
      size={size}
      ff="monospace"
      c={expired || urgent ? 'red' : undefined}
      fw={urgent ? 700 : undefined}
      data-testid="countdown"
      data-urgent={urgent ? 'true' : undefined}
      aria-label={expired ? 'Expired' : `${label} left`}
    >
      {label}
    </Text>
  );
}
