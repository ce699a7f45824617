import { CLIENT_TYPES, type SessionUser } from '@dart/contracts';
import { Button, Group, Modal, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { BuildingIcon, UsersIcon } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { ExchangeCredentialsPanel } from '../../features/exchange-credentials';
import { InviteUserForm, PendingInvites, UsersTable } from '../../features/manage-users';
import {
  AccountSummary,
  DisplayPreferencesSection,
  OrganisationDetailsForm,
  ProfileDetailsForm,
  SecurityPreferences,
} from '../../features/profile';
import { NotificationPreferencesSection } from '../../features/notifications';
import { MyRequests, NewSupportRequestButton, SupportQueue } from '../../features/support';
import { WhatsAppConsentSection } from '../../features/whatsapp';
import { useSessionUser } from '../../lib/session';

export function ProfileScreen() {
  const user = useSessionUser();
  return (
    <Stack gap="lg">
      <PageHeader
        title="Profile"
        description="Your personal details, how you sign in, how Dart shows dates and plays sounds, what notifies you, and your WhatsApp alerts."
      />
      <AccountSummary user={user} />
      <ProfileDetailsForm user={user} />
      <SecurityPreferences user={user} />
      <DisplayPreferencesSection user={user} />
      <NotificationPreferencesSection />
      <WhatsAppConsentSection user={user} />
    </Stack>
  );
}

export function ManageUsersScreen() {
  const [inviteOpened, invite] = useDisclosure(false);
  return (
    <Stack gap="lg">
      <PageHeader
        title="Manage users"
        description="Everyone in your organisation, their roles and permissions."
        actions={
          <Button leftSection={<UsersIcon size={16} />} onClick={invite.open}>
            Invite user
          </Button>
        }
      />
      <UsersTable />
      <PendingInvites />
      <Modal opened={inviteOpened} onClose={invite.close} title="Invite a colleague" size="lg" centered>
        <InviteUserForm />
      </Modal>
    </Stack>
  );
}

export function ExchangeCredentialsScreen() {
  return (
    <Stack gap="lg">
      <PageHeader
        title="Exchange credentials"
        description="Your firm's logins at NSE Clearing (NSCCL) and the Indian Clearing Corporation (ICCL): your dealers can raise RFQs on an exchange once its credentials are set."
      />
      <ExchangeCredentialsPanel />
    </Stack>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.4}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

const CLIENT_TYPE_NAMES: Record<(typeof CLIENT_TYPES)[number], string> = {
  CORP: 'Corporate',
  'CORP-P': 'Corporate partner',
  INDV: 'Individual',
  'INDV-P': 'Individual partner',
};

function OrganisationFacts({ user }: { user: SessionUser }) {
  const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
  return (
    <Paper withBorder radius="lg" p="lg">
      <Stack gap="lg">
        <Group gap="sm">
          <ThemeIcon variant="light" size={40} radius="md">
            <BuildingIcon />
          </ThemeIcon>
          <div>
            <Title order={2} fz={20}>
              {user.name}
            </Title>
            <Text size="sm" c="dimmed">
              {CLIENT_TYPE_NAMES[user.client_type]} · {user.client_tier === 'PREMIUM' ? 'Premium plan' : 'Basic plan'}
            </Text>
          </div>
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="lg">
          <Fact label="Trading exchanges">{user.allowed_exchanges.join(', ') || 'None'}</Fact>
          <Fact label="Reporting exchanges">{user.allowed_reporting_exchanges.join(', ') || 'None'}</Fact>
          <Fact label="RFQ exchanges">{user.rfq_exchanges.join(', ') || 'None'}</Fact>
          <Fact label="Straight-through processing">{user.stp_exchanges.join(', ') || 'None'}</Fact>
          <Fact label="Broker firm">{yesNo(user.is_broker)}</Fact>
          <Fact label="Works with brokers">{yesNo(user.has_brokers)}</Fact>
          <Fact label="Trades on own books">{yesNo(user.trades_on_books)}</Fact>
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

export function ClientProfileScreen() {
  const user = useSessionUser();
  return (
    <Stack gap="lg">
      <PageHeader title="Organisation" description="How your organisation is set up on Dart." />
      <OrganisationFacts user={user} />
      <OrganisationDetailsForm user={user} />
    </Stack>
  );
}

export function SupportRequestsScreen() {
  return (
    <Stack gap="lg">
      <PageHeader
        title="My requests"
        description="What you asked Dart Support, where each request stands, and the replies."
        actions={<NewSupportRequestButton />}
      />
      <MyRequests />
    </Stack>
  );
}

export function SupportQueueScreen() {
  return (
    <Stack gap="lg">
      <PageHeader
        title="Support queue"
        description="Requests from every organisation: reply, and move each one along until it is resolved."
      />
      <SupportQueue />
    </Stack>
  );
}
