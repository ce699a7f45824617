/**
 * The /dart workspace's Build Network panel as the route composes it (features never import each other): the
 * network feature's directories and stats, the workspace's panel, and the rows' actions wired to chat (a direct
 * chat with the firm's dealer), the market (the quote ticket as a private run, Raise RFQ one-to-one) and
 * manage-users (the invite form, for ops admins).
 */
import type { Exchange, WorkspacePanelId } from '@dart/contracts';
import { Modal } from '@mantine/core';
import { useState } from 'react';
import { onOpenChannelRequest, useOpenDirectChat } from '../../features/chat';
import { InviteUserForm } from '../../features/manage-users';
import { onTicketRequest, RaiseRfqDialog, requestPrivateRunTicket } from '../../features/market';
import { useBuildNetwork } from '../../features/network';
import { BuildNetworkPanel, type BuildNetworkRow } from '../../features/workspace';
import { describeError } from '../../lib/errors';
import { useSession } from '../../lib/session';
import { showToast } from '../../lib/toast';
import { marketSlots } from './market-slots';

/** A ticket request (`B` / `S`, a private run) brings the ticket forward; a chat opened from the network, the Chat panel. */
export const revealWorkspacePanels = (show: (id: WorkspacePanelId) => void) => {
  const stopTickets = onTicketRequest(() => show('quote-ticket'));
  const stopChats = onOpenChannelRequest(() => show('chat'));
  return () => {
    stopTickets();
    stopChats();
  };
};

export function NetworkPanel({ canInvite }: { canInvite: boolean }) {
  const { user } = useSession();
  const network = useBuildNetwork();
  const chat = useOpenDirectChat();
  const [inviting, setInviting] = useState(false);
  const [rfq, setRfq] = useState<{ clientId: string; name: string; exchange: Exchange } | null>(null);

  const openChat = (row: BuildNetworkRow) => {
    if (!row.contact || chat.opening) return;
    chat
      .open(row.contact.userId)
      .catch((error: unknown) =>
        showToast({ severity: 'error', summary: `Could not open a chat with ${row.name}`, detail: describeError(error) }),
      );
  };

  return (
    <>
      <BuildNetworkPanel
        sections={network.sections}
        search={network.search}
        onSearchChange={network.onSearchChange}
        loading={network.loading}
        canViewPartners={network.canViewPartners}
        canTrade={network.canTrade}
        myRfqExchanges={user?.rfq_exchanges ?? []}
        canInvite={canInvite}
        onInvite={() => setInviting(true)}
        onChat={openChat}
        onPrivateRun={(row) => requestPrivateRunTicket({ clientId: row.clientId, name: row.name })}
        onOtoRfq={(row, exchange) => setRfq({ clientId: row.clientId, name: row.name, exchange: exchange as Exchange })}
      />
      <Modal opened={inviting} onClose={() => setInviting(false)} title="Invite to your network" size="lg">
        <InviteUserForm />
      </Modal>
      <RaiseRfqDialog
        opened={rfq !== null}
        onClose={() => setRfq(null)}
        participant={rfq}
        renderBondSearch={marketSlots.renderBondSearch}
        renderPricing={marketSlots.renderPricing}
      />
    </>
  );
}
