import { ROLE_LABELS } from '@dart/contracts';
import { Badge, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import { ComingSoonPanel } from '../../components/ui/coming-soon-panel';
import { BoxIcon, ChartIcon, ReceiptIcon, SearchIcon } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { ButtonLink } from '../../components/ui/router-links';
import { AuditTrail } from '../../features/surveillance';
import { WorkspacePanels } from '../../features/workspace';
import { useSession } from '../../lib/session';

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
          user
            ? `${salutation}, ${user.user_info.first_name}. Your trading panels live here; they fill up as your network, chats and quotes do.`
            : undefined
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
      <WorkspacePanels />
    </>
  );
}

export function FindScreen() {
  return (
    <>
      <PageHeader title="Find" description="Search India's bonds by name, ISIN or issuer." />
      <ComingSoonPanel
        icon={<SearchIcon size={26} />}
        title="Bond search"
        summary="Find will search every listed corporate bond, government security and money-market instrument, with results from the third character you type."
        features={[
          'Search by bond name, ISIN or issuer',
          'Read coupon, maturity, rating and call/put schedules at a glance',
          'Convert between yield and clean price for any settlement date',
          'Open a bond in the Dart workspace to quote it or ask your network for prices',
        ]}
      />
    </>
  );
}

export function SecurityScreen({ id }: { id: string }) {
  return (
    <>
      <PageHeader title={`Security ${id}`} description="Bond details, pricing and documents for one security." />
      <ComingSoonPanel
        icon={<ChartIcon size={26} />}
        title="Security details"
        summary={`This page will show everything about security ${id}: its terms, its price and yield history, and its documents.`}
        features={[
          'Issuer, coupon, frequency, maturity, face value and rating',
          'Call and put schedule and the cashflows that follow from it',
          'Price and yield history, and a price/yield calculator',
          'Download the information memorandum',
        ]}
      />
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
