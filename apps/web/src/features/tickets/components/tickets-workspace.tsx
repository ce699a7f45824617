import { useCallback, useState, type ReactNode } from 'react';
import { canTrade as canTradeFor, useSession } from '../../../lib/session';
import { useTicketLiveUpdates } from '../hooks/use-ticket-live-updates';
import { ManualTicketDialog } from './manual-ticket-dialog';
import { TicketDialog } from './ticket-dialog';
import { TicketingPanel } from './ticketing-panel';
import type { TicketsSlots } from './tickets-slots';

export interface TicketsWorkspaceProps extends TicketsSlots {
  /** Lays the Ticketing panel out (the route hands it to the workspace's dock). */
  children: (ticketing: ReactNode) => ReactNode;
}

/**
 * The post-trade part of the /dart workspace: keeps the firm's tickets live (toasts on a new ticket or a
 * consideration update, even with the panel closed), renders the ticket dialog and the manual ticket
 * form, and gives the Ticketing panel to `children` to lay out.
 */
export function TicketsWorkspace({ children, ...slots }: TicketsWorkspaceProps) {
  const { user } = useSession();
  const canTrade = canTradeFor(user);
  const [openId, setOpenId] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const open = useCallback((id: string) => setOpenId(id), []);
  useTicketLiveUpdates({ onOpen: open });
  if (!user) return null;
  return (
    <>
      {children(<TicketingPanel clientId={user.client_id} canTrade={canTrade} onOpen={open} onNewTicket={() => setCreating(true)} />)}
      <TicketDialog
        ticketId={openId}
        onClose={() => setOpenId(null)}
        clientId={user.client_id}
        canTrade={canTrade}
        renderPricing={slots.renderPricing}
      />
      <ManualTicketDialog
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(id) => {
          setCreating(false);
          setOpenId(id);
        }}
        {...slots}
      />
    </>
  );
}
