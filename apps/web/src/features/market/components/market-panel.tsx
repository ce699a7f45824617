import { Group, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './market.module.css';

export interface MarketPanelProps {
  id: string;
  title: string;
  /** Kept for callers; the dock's tab names the panel, so the dense caption shows no icon. */
  icon?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  /** The body is a column whose grid fills what the caption leaves (the grid scrolls, not the panel). */
  fill?: boolean;
}

/**
 * A panel of the /dart dock: a one-line caption (title and actions, 30 px; none when there are no
 * actions) over a body that scrolls inside the dock panel. Dense like a blotter: no card border or padding (the dock frames it).
 */
export function MarketPanel({ id, title, actions, children, className, fill = false }: MarketPanelProps) {
  return (
    <section
      aria-labelledby={`panel-${id}`}
      className={className ? `${classes.panel} ${className}` : classes.panel}
      data-testid={`panel-${id}`}
    >
      {actions !== undefined ? (
        <Group justify="space-between" className={classes.panelHeader} wrap="nowrap" gap="xs">
          <Text size="xs" fw={600} c="dimmed" id={`panel-${id}`} truncate>
            {title}
          </Text>
          {actions ? (
            <Group gap={6} wrap="nowrap" className={classes.panelActions}>
              {actions}
            </Group>
          ) : null}
        </Group>
      ) : (
        // No actions at all: the dock's tab already names the panel, so no caption row; the title still names the region.
        <VisuallyHidden id={`panel-${id}`}>{title}</VisuallyHidden>
      )}
      <div className={classes.panelBody} data-fill={fill || undefined}>
        {children}
      </div>
    </section>
  );
}
