import { isClientOpsAdmin, ROLE_LABELS, type WorkspacePanelId } from '@dart/contracts';
import { Badge, Group, Stack, Title } from '@mantine/core';
import { ComingSoonPanel } from '../../components/ui/coming-soon-panel';
import { BoxIcon, ChartIcon, ReceiptIcon } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { ButtonLink } from '../../components/ui/router-links';
import { ChatWorkspace, useChatConnections } from '../../features/chat';
import { MarketWorkspace, onTicketRequest } from '../../features/market';
import { AuditTrail } from '../../features/surveillance';
import { BuildNetworkPanel, ChatPanel, DockWorkspace, withChatContacts, type BuildNetworkPanelProps } from '../../features/workspace';
import { useSession } from '../../lib/session';
import { chatSlots } from './chat-slots';
import { marketSlots } from './market-slots';

/** Build Network: the market's firms (deals, participant search) and the people the user chats with. */
function NetworkPanel({ firms, search, ...rest }: BuildNetworkPanelProps) {
  const contacts = useChatConnections();
  return <BuildNetworkPanel {...rest} search={search} firms={withChatContacts(firms, contacts, search)} />;
}

/** `B` / `S` (a ticket asked for on the selected bond) open the dock's ticket panel or bring it forward. */
const revealTicket = (show: (id: WorkspacePanelId) => void) => onTicketRequest(() => show('quote-ticket'));

/**
 * /dart: the docking workspace (issue 12 §2). The route composes the panels: the market's (ticket,
 * runs, RFQ quotes, negotiations, matches and deals, depth, ticketing), chat, and the workspace's
 * Build Network fed with the market's counterparties and the user's chat contacts; the workspace lays them out.
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
    <MarketWorkspace {...marketSlots}>
      {({ panels, network }) => (
        <DockWorkspace
          userId={user.user_info.id}
          heading={heading}
          reveal={revealTicket}
          panels={{
            ...panels,
            chat: (
              <ChatPanel>
                <ChatWorkspace variant="compact" {...chatSlots} />
              </ChatPanel>
            ),
            'build-network': <NetworkPanel {...network} canInvite={isClientOpsAdmin({ roles: user.user_info.roles })} />,
          }}
        />
      )}
    </MarketWorkspace>
  );
}

export function InventoryScreen() {
  return (
    <>
      <PageHeader title="Inventory" description="Your holdings and the offers you make from them." />
      <ComingSoonPanel
        icon={<BoxIcon size={26} />}
        title="Inventory"
        summary="Keep the bonds your desk holds in one list and quote straight from it."
        features={[
          'Upload holdings from a spreadsheet or add them one by one',
          'Mark bonds as available and set offer levels in yield or price',
          'Share selected inventory with your network as a run',
        ]}
      />
    </>
  );
}

export function TransactionsScreen() {
  return (
    <>
      <PageHeader title="Transactions" description="Trades your organisation has reported, with their settlement." />
      <ComingSoonPanel
        icon={<ReceiptIcon size={26} />}
        title="Transactions"
        summary="Every trade reported from Dart, and the external trades you record, in one blotter."
        features={[
          'Filter by bond, counterparty, exchange and settlement date',
          'Follow settlement status from NSCCL and ICCL',
          'Record trades done outside Dart to keep your book complete',
          'Export to spreadsheet for your back office',
        ]}
      />
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
        description="A read-only record of sign-ins and every change in your organisation, for compliance review."
        eyebrow={
          <Badge variant="light" color="gray" radius="sm" w="fit-content">
            View only
          </Badge>
        }
      />
      <AuditTrail />
    </Stack>
  );
}
