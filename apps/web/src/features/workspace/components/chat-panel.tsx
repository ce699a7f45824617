import type { ReactNode } from 'react';
import classes from './panels.module.css';

/**
 * The Chat panel's frame around the chat feature's compact workspace (the route passes it). Not a
 * region of its own: the dock's group is the region named after its active panel ("Chat").
 */
export function ChatPanel({ children }: { children: ReactNode }) {
  return (
    <div className={classes.chat} data-testid="workspace-chat">
      {children}
    </div>
  );
}
