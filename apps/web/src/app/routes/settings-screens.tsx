import { CLIENT_TYPES, INDIVIDUAL_CATEGORIES, type SessionUser } from '@dart/contracts';
import { Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { ComingSoonPanel } from '../../components/ui/coming-soon-panel';
import { BuildingIcon, CheckIcon, KeyIcon, UsersIcon } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page-header';
import { InviteUserForm, PendingInvites, UsersTable } from '../../features/manage-users';
import { AccountSummary, DisplayPreferencesSection, ProfileDetailsForm, SecurityPreferences } from '../../features/profile';
import { useSessionUser } from '../../lib/session';

export function ProfileScreen() {
  const user = useSessionUser();
  return (
    <Stack gap="lg">
      <PageHeader title="Profile" description="Your personal details, how you sign in, and how Dart shows dates and plays sounds." />
      <AccountSummary user={user} />
      <ProfileDetailsForm user={user} />
      <SecurityPreferences user={user} />
      <DisplayPreferencesSection user={user} />
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

function CredentialStatus({
  exchange,
  clearing,
  configured,
  name,
}: {
  exchange: string;
  clearing: string;
  configured: boolean;
  name: string | null;
}) {
  return (
    <Paper withBorder radius="lg" p="lg">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Text fw={600}>{exchange} RFQ</Text>
          <Text size="sm" c="dimmed">
            Clearing: {clearing}
          </Text>
          {name ? <Text size="sm">Participant: {name}</Text> : null}
        </Stack>
        <Badge variant="light" color={configured ? 'teal' : 'gray'} leftSection={configured ? <CheckIcon size={12} /> : null}>
          {configured ? 'Connected' : 'Not connected'}
        </Badge>
      </Group>
    </Paper>
  );
}

export function ExchangeCredentialsScreen() {
  const user = useSessionUser();
  return (
    <Stack gap="lg">
      <PageHeader
        title="Exchange credentials"
        description="Participant credentials your desk uses to report deals on the exchange RFQ platforms."
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <CredentialStatus exchange="NSE" clearing="NSE Clearing (NSCCL)" configured={user.nsccl_credentials} name={user.nsccl_name} />
        <CredentialStatus
          exchange="BSE"
          clearing="Indian Clearing Corporation (ICCL)"
          configured={user.iccl_credentials}
          name={user.iccl_name}
        />
      </SimpleGrid>
      <ComingSoonPanel
        icon={<KeyIcon size={26} />}
        title="Connect exchange credentials"
        summary="Operations admins will enter the participant code, username and password for each exchange here, once for the whole desk."
        features={[
          'Add or replace NSE (NSCCL) and BSE (ICCL) participant credentials',
          'Credentials are stored encrypted and never shown again after saving',
          'Choose which exchanges your dealers can report on',
        ]}
      />
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
      <ComingSoonPanel
        icon={<BuildingIcon size={26} />}
        title="Organisation details"
        summary="Company details, KYC documents, bank and depository accounts will be managed here."
        features={[
          `Registered name, PAN and GSTIN; category for individual clients (${Object.values(INDIVIDUAL_CATEGORIES).join(', ')})`,
          'Bank accounts (IFSC) and depository accounts (DP ID, client ID, BO ID) for settlement',
          'Custodian and broker relationships',
        ]}
      />
    </Stack>
  );
}
