import { ROLE_LABELS } from '@dart/contracts';
import { Badge, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import { ComingSoonPanel } from '../../components/ui/coming-soon-panel';
import { BoxIcon, ChartIcon, ReceiptIcon } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { ButtonLink } from '../../components/ui/router-links';
import { ChatWorkspace } from '../../features/chat';
import { MarketWorkspace } from '../../features/market';
import { AuditTrail } from '../../features/surveillance';
import { WorkspacePanels } from '../../features/workspace';
import { useSession } from '../../lib/session';
import { chatSlots } from './chat-slots';
import { marketSlots } from './market-slots';

function greeting(now: Date): string {
  const hour = now.getHours();
  if (hour < 12) return 'Good morning';
  if (hour < 17) return 'Good afternoon';
  return 'Good evening';
}

export function DartScreen() {
  const { user } = useSession();
  const [salutation] = useState(() => greeting(new Date()));
  return (
    <>
      <PageHeader
        title="Workspace"
        description={
          user ? `${salutation}, ${user.user_info.first_name}. Quote, watch the market live, negotiate and accept matches here.` : undefined
        }
        eyebrow={
          user ? (
            <Group gap={6}>
              <Badge variant="light" radius="sm">
                {user.name}
              </Badge>
              {user.user_info.roles.map((role) => (
                <Badge key={role} variant="outline" color="gray" radius="sm" tt="none">
                  {ROLE_LABELS[role]}
                </Badge>
              ))}
            </Group>
          ) : undefined
        }
      />
      <Stack gap="md">
        <MarketWorkspace {...marketSlots} />
        <WorkspacePanels chat={<ChatWorkspace variant="compact" {...chatSlots} />} />
      </Stack>
    </>
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
