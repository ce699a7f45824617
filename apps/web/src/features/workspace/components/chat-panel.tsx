import type { ReactNode } from 'react';
import classes from './panels.module.css';

/** The Chat panel's frame around the chat feature's compact workspace (the route passes it). */
export function ChatPanel({ children }: { children: ReactNode }) {
  return (
    <section aria-label="Chat" className={classes.chat} data-testid="workspace-chat">
      {children}
    </section>
  );
}
