import { ActionIcon, Tooltip, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { MoonIcon, SunIcon } from './icons';

/**
 * Switches between light and dark. The first visit follows the system setting ('auto'); a click
 * stores an explicit choice (Mantine's localStorage colour-scheme manager).
 */
export function ThemeToggle({ variant = 'default' }: { variant?: 'default' | 'inverse' }) {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const next = computed === 'dark' ? 'light' : 'dark';
  const label = `Switch to ${next} theme`;
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon
        variant={variant === 'inverse' ? 'white' : 'default'}
        color={variant === 'inverse' ? 'dart' : undefined}
        size="lg"
        radius="md"
        aria-label={label}
        data-testid="theme-toggle"
        onClick={() => setColorScheme(next)}
      >
        {computed === 'dark' ? <SunIcon /> : <MoonIcon />}
      </ActionIcon>
    </Tooltip>
  );
}
