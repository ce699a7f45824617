import { Group, List, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  BoxIcon,
  BroadcastIcon,
  ChartIcon,
  ChatIcon,
  CheckIcon,
  KeyIcon,
  ListIcon,
  NetworkIcon,
  QuoteIcon,
  ReceiptIcon,
  SearchIcon,
  TicketIcon,
} from '../../../components/ui/icons';
import { ButtonLink } from '../../../components/ui/router-links';
import { FeatureGrid, PageTop, Section, SectionTitle } from './building-blocks';

const WORKSPACE = [
  {
    icon: <NetworkIcon />,
    title: 'Build Network',
    text: 'Bring in the banks, funds, treasuries and brokers you deal with. Everything else flows through your network.',
  },
  {
    icon: <ChatIcon />,
    title: 'Chat',
    text: 'Direct and group chats with counterparties, with quotes and trade terms right in the conversation.',
  },
  {
    icon: <TicketIcon />,
    title: 'Ticketing',
    text: 'Turn an agreed negotiation into a deal ticket and carry it through to exchange reporting.',
  },
  { icon: <ListIcon />, title: 'Private runs', text: 'Send your bid and ask levels to chosen counterparties only.' },
  { icon: <BroadcastIcon />, title: 'Public runs', text: 'Publish runs to the wider Dart network when you want the market to see them.' },
  {
    icon: <QuoteIcon />,
    title: 'RFQ quotes',
    text: 'Track requests for quote on the NSE and BSE RFQ platforms and respond from the same screen.',
  },
];

const MORE = [
  {
    icon: <ChartIcon />,
    title: 'Yield or price',
    text: 'Enter either; Dart computes the other with the instrument’s conventions, clean price per 100 to four decimals.',
  },
  { icon: <BoxIcon />, title: 'Inventory', text: 'Keep your holdings and offers in one place and quote from them in a click (Premium).' },
  {
    icon: <ReceiptIcon />,
    title: 'Transactions',
    text: 'Every trade you report, with settlement status from the clearing corporation (Premium).',
  },
  {
    icon: <KeyIcon />,
    title: 'Exchange credentials',
    text: 'Operations admins connect your NSE (NSCCL) and BSE (ICCL) participant credentials once for the whole desk.',
  },
];

export function ProductDartPage() {
  return (
    <>
      <PageTop
        title="The Dart workspace"
        lead="A single screen for the whole life of a bond trade: build your network, quote, negotiate and report, with every panel arranged the way your desk works."
      >
        <Group mt="lg" gap="sm">
          <ButtonLink to="/client/register" size="md">
            Register your organisation
          </ButtonLink>
          <ButtonLink to="/auth/login" size="md" variant="default">
            Sign in
          </ButtonLink>
        </Group>
      </PageTop>
      <Section>
        <SectionTitle
          title="Panels for every part of the trade"
          lead="Arrange them side by side, in tabs or floating; Dart remembers your layout."
        />
        <FeatureGrid features={WORKSPACE} />
      </Section>
      <Section alt>
        <SectionTitle title="And around the workspace" />
        <FeatureGrid features={MORE} cols={4} />
      </Section>
    </>
  );
}

const FIND_FEATURES = [
  {
    icon: <SearchIcon />,
    title: 'Search that understands bonds',
    text: 'Type part of a name, an ISIN or an issuer: results appear from the third character.',
  },
  {
    icon: <ListIcon />,
    title: 'Every term in one view',
    text: 'Coupon and frequency, maturity, call and put schedules, rating, face value and listing.',
  },
  {
    icon: <ChartIcon />,
    title: 'Price and yield calculator',
    text: 'Convert between yield and clean price for any settlement date, with accrued interest and consideration.',
  },
  { icon: <ReceiptIcon />, title: 'Documents at hand', text: 'Download the information memorandum directly from the bond page.' },
];

export function ProductFindPage() {
  return (
    <>
      <PageTop
        title="Find: every Indian bond, understood"
        lead="Search corporate bonds, government securities and money-market instruments and see what each one really pays."
      >
        <Group mt="lg" gap="sm">
          <ButtonLink to="/find" size="md">
            Open Find
          </ButtonLink>
          <ButtonLink to="/client/register" size="md" variant="default">
            Register
          </ButtonLink>
        </Group>
      </PageTop>
      <Section>
        <FeatureGrid features={FIND_FEATURES} cols={4} />
      </Section>
      <Section alt>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
          <Stack gap="sm">
            <Title order={2} fz={26}>
              Open to everyone, richer when signed in
            </Title>
            <Text c="dimmed">
              Anyone can look up a bond on Find. Signed-in dealers take it straight into the Dart workspace to quote or ask for prices from
              their network.
            </Text>
          </Stack>
          <Paper withBorder radius="lg" p="lg">
            <List
              spacing="sm"
              icon={
                <ThemeIcon size={22} radius="xl" variant="light" color="teal">
                  <CheckIcon size={14} />
                </ThemeIcon>
              }
            >
              <List.Item>Yields shown as a percentage to four decimals</List.Item>
              <List.Item>Clean prices per 100 of face value to four decimals</List.Item>
              <List.Item>Amounts in Indian digit grouping: ₹1,00,00,000</List.Item>
              <List.Item>Dates as mm/dd/yy</List.Item>
            </List>
          </Paper>
        </SimpleGrid>
      </Section>
    </>
  );
}
