import { isClientOpsAdmin, ROLE_LABELS } from '@dart/contracts';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { ComingSoonPanel } from '../../components/ui/coming-soon-panel';
import { ChartIcon } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { ButtonLink } from '../../components/ui/router-links';
import { ChatWorkspace } from '../../features/chat';
import { InventoryPage, type CounterpartySlot } from '../../features/inventory';
import { CounterpartyPicker, MarketWorkspace } from '../../features/market';
import { AlertsList, AuditTrail, ChatsList } from '../../features/surveillance';
import { TicketsWorkspace } from '../../features/tickets';
import { TransactionsPage } from '../../features/transactions';
import { ChatPanel, DockWorkspace } from '../../features/workspace';
import { useSession } from '../../lib/session';
import { chatSlots } from './chat-slots';
import { marketSlots } from './market-slots';
import { NetworkPanel, revealWorkspacePanels } from './network-panel';

/**
 * /dart: the docking workspace (issue 12 §2). The route composes the panels: the market's (ticket,
 * runs, RFQ quotes, negotiations, matches and deals, depth), the tickets feature's Ticketing, chat, and
 * Build Network (`network-panel.tsx`: the network feature's directories in the workspace's panel, its actions
 * wired to chat and the market); the workspace lays them out.
 */
export function DartScreen() {
  const { user } = useSession();
  if (!user) return null;
  const heading = (
    <>
      <Title order={1} fz={18} lh={1.2}>
        Workspace
      </Title>
      <Group gap={4} wrap="nowrap" visibleFrom="sm">
        <Badge variant="light" radius="sm" size="sm" tt="none">
          {user.name}
        </Badge>
        {user.user_info.roles.map((role) => (
          <Badge key={role} variant="outline" color="gray" radius="sm" size="sm" tt="none">
            {ROLE_LABELS[role]}
          </Badge>
        ))}
      </Group>
    </>
  );
  return (
    <TicketsWorkspace renderBondSearch={marketSlots.renderBondSearch} renderPricing={marketSlots.renderPricing}>
      {(ticketing) => (
        <MarketWorkspace {...marketSlots}>
          {({ panels }) => (
            <DockWorkspace
              userId={user.user_info.id}
              heading={heading}
              reveal={revealWorkspacePanels}
              panels={{
                ...panels,
                ticketing,
                chat: (
                  <ChatPanel>
                    <ChatWorkspace variant="compact" {...chatSlots} />
                  </ChatPanel>
                ),
                'build-network': <NetworkPanel canInvite={isClientOpsAdmin({ roles: user.user_info.roles })} />,
              }}
            />
          )}
        </MarketWorkspace>
      )}
    </TicketsWorkspace>
  );
}

/**
 * /inventory: the firm's bond book (issue 14). The route hands the market's counterparty picker to the book's
 * "Offer" dialog for private runs (features do not import each other).
 */
export function InventoryScreen() {
  return (
    <>
      <PageHeader
        title="Inventory"
        description="What your firm holds, what it is worth on the reference prices, and what you can offer from it."
      />
      <InventoryPage renderCounterparties={inventoryCounterparties} />
    </>
  );
}

const inventoryCounterparties: CounterpartySlot = ({ value, onChange, error }) => (
  <CounterpartyPicker
    value={value}
    onChange={onChange}
    error={error}
    label="Counterparties"
    description="Only the firms you choose see this offer, in their private runs."
  />
);

/** /client/transactions: the firm's orders and procurement orders (dealers, viewers and back office; Premium). */
export function TransactionsScreen() {
  return (
    <>
      <PageHeader
        title="Transactions"
        description="Your firm's reported trades: orders (sales) and procurement orders (purchases), their reporting to the exchange and their settlement."
      />
      <TransactionsPage />
    </>
  );
}

/** /market and /trade when the redirect lookup gives no target. */
export function RedirectFallbackScreen({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <ComingSoonPanel
        icon={<ChartIcon size={26} />}
        title={title}
        summary="This section opens inside the Dart workspace."
        features={['Market runs and quotes from your network', 'Requests for quote on the exchange platforms']}
      >
        <Group>
          <ButtonLink to="/dart">Go to the workspace</ButtonLink>
        </Group>
      </ComingSoonPanel>
    </>
  );
}

export function SurveillanceScreen() {
  return (
    <Stack gap={0}>
      <PageHeader
        title="Surveillance"
        description="Alerts raised from your organisation's chats, quotes and trades to triage, and a read-only record of sign-ins and every change, for compliance review."
        eyebrow={
          <Badge variant="light" color="gray" radius="sm" w="fit-content">
            View only
          </Badge>
        }
      />
      <Stack gap="lg">
        <AlertsList />
        <ChatsList />
        <FirmTrades />
        <AuditTrail />
      </Stack>
    </Stack>
  );
}

/**
 * The firm's trades as compliance reads them: the transactions blotter (read only: compliance cannot trade), folded
 * until asked for, so the page opens on the alerts and its blotter loads only when wanted.
 */
function FirmTrades() {
  const [opened, setOpened] = useState(false);
  return (
    <Paper withBorder radius="lg" p="md">
      <Group justify="space-between" wrap="nowrap">
        <div>
          <Title order={2} size="h4" id="surveillance-trades">
            Trades
          </Title>
          <Text size="sm" c="dimmed">
            Your organisation's orders and procurement orders: reporting, settlement, contract notes.
          </Text>
        </div>
        <Button
          variant="default"
          size="xs"
          onClick={() => setOpened((o) => !o)}
          aria-expanded={opened}
          aria-controls="surveillance-trades-body"
        >
          {opened ? 'Hide trades' : 'Show trades'}
        </Button>
      </Group>
      {opened ? (
        <div id="surveillance-trades-body" style={{ marginTop: 'var(--mantine-spacing-md)' }}>
          <TransactionsPage />
        </div>
      ) : null}
    </Paper>
  );
}
