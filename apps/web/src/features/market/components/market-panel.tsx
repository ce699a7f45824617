import { Group, Paper, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './market.module.css';

export interface MarketPanelProps {
  id: string;
  title: string;
  icon: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A workspace panel: titled header with actions, and a body (same frame as the workspace's panels). */
export function MarketPanel({ id, title, icon, actions, children, className }: MarketPanelProps) {
  return (
    <Paper
      withBorder
      radius="md"
      component="section"
      aria-labelledby={`panel-${id}`}
      className={className ? `${classes.panel} ${className}` : classes.panel}
      data-testid={`panel-${id}`}
    >
      <Group justify="space-between" className={classes.panelHeader} wrap="nowrap" gap="sm">
        <Group gap="xs" wrap="nowrap">
          <ThemeIcon variant="light" size="md" radius="sm">
            {icon}
          </ThemeIcon>
          <Text fw={600} id={`panel-${id}`}>
            {title}
          </Text>
        </Group>
        {actions ? (
          <Group gap="xs" wrap="nowrap">
            {actions}
          </Group>
        ) : null}
      </Group>
      <div className={classes.panelBody}>{children}</div>
    </Paper>
  );
}
