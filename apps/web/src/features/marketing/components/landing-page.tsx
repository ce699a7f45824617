import { Badge, Box, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  BuildingIcon,
  ChartIcon,
  ChatIcon,
  CheckIcon,
  KeyIcon,
  NetworkIcon,
  ReceiptIcon,
  SearchIcon,
  ShieldIcon,
  UsersIcon,
} from '../../../components/ui/icons';
import { ButtonLink } from '../../../components/ui/router-links';
import { homePathFor, useSession } from '../../../lib/session';
import { Eyebrow, FeatureGrid, Hero, Section, SectionTitle } from './building-blocks';
import classes from './marketing.module.css';

const INSTRUMENTS = [
  'Corporate bonds',
  'Government securities',
  'State development loans',
  'Treasury bills',
  'Commercial paper',
  'Certificates of deposit',
];

const STEPS = [
  {
    icon: <SearchIcon />,
    title: 'Find',
    text: 'Search bonds by name, ISIN or issuer and read their terms: coupon, maturity, rating, call and put dates.',
  },
  {
    icon: <ChartIcon />,
    title: 'Price',
    text: 'Work in yield or in clean price. Dart converts between them with the day-count conventions of each instrument.',
  },
  {
    icon: <ChatIcon />,
    title: 'Negotiate',
    text: 'Share quotes and runs with your network, answer requests for quote and agree the final terms in chat.',
  },
  {
    icon: <ReceiptIcon />,
    title: 'Report and settle',
    text: 'Report the deal to the NSE or BSE RFQ platform and follow its settlement through the clearing corporation.',
  },
];

const DESKS = [
  {
    icon: <BuildingIcon />,
    title: 'Corporate treasuries',
    text: 'Park surplus cash in bonds, commercial paper and CDs with a clear view of yield, tenor and settlement.',
  },
  {
    icon: <ChartIcon />,
    title: 'Funds and insurers',
    text: 'Source paper across many counterparties at once and keep every quote and trade on record.',
  },
  {
    icon: <NetworkIcon />,
    title: 'Brokers and arrangers',
    text: 'Run your client book, publish runs and bring buyers and sellers together on one screen.',
  },
  {
    icon: <UsersIcon />,
    title: 'Family offices and wealth managers',
    text: 'Give individual and HUF clients access to the bond market with the same tools as an institutional desk.',
  },
];

const CONTROLS = [
  {
    icon: <KeyIcon />,
    title: 'Roles for every seat',
    text: 'Dealers trade, viewers watch, operations admins manage users and exchange credentials, back office follows settlement.',
  },
  {
    icon: <ShieldIcon />,
    title: 'Compliance built in',
    text: 'Compliance officers get a view-only surveillance screen. Every sign-in and every change lands in an append-only audit trail.',
  },
  {
    icon: <CheckIcon />,
    title: 'Secure sign-in',
    text: 'Password or one-time-password sign-in, short-lived sessions that renew quietly, and alerts on new sign-ins.',
  },
];

export function LandingPage() {
  const { user } = useSession();
  return (
    <>
      <Hero overlay>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48} style={{ alignItems: 'center' }}>
          <Stack gap="lg">
            <Eyebrow>For India&apos;s debt market</Eyebrow>
            <Title order={1} fz={{ base: 36, md: 52 }} className={classes.heroTitle}>
              The bond desk for India&apos;s debt market
            </Title>
            <Text size="xl" className={classes.heroText} maw={560}>
              Dart brings bond search, pricing, negotiation and exchange reporting into one screen for treasuries, funds, banks and brokers.
            </Text>
            <Group gap="sm">
              {user ? (
                <ButtonLink to={homePathFor(user)} size="lg" variant="white">
                  Open Dart
                </ButtonLink>
              ) : (
                <>
                  <ButtonLink to="/client/register" size="lg" variant="white">
                    Register your organisation
                  </ButtonLink>
                  <ButtonLink to="/auth/login" size="lg" variant="outline" color="white">
                    Sign in
                  </ButtonLink>
                </>
              )}
            </Group>
          </Stack>
          <Box className={classes.glass} p={{ base: 'lg', md: 32 }}>
            <Stack gap="md">
              <Text fw={600} c="white">
                One place for every instrument you trade
              </Text>
              <Group gap={8}>
                {INSTRUMENTS.map((instrument) => (
                  <span key={instrument} className={classes.chip}>
                    <CheckIcon size={14} />
                    {instrument}
                  </span>
                ))}
              </Group>
              <Text size="sm" className={classes.heroText}>
                Deals are executed and reported on the exchanges&apos; RFQ platforms and settled through NSE Clearing (NSCCL) and Indian
                Clearing Corporation (ICCL). Dart is the desk; the market infrastructure stays where it is.
              </Text>
            </Stack>
          </Box>
        </SimpleGrid>
      </Hero>

      <Section>
        <SectionTitle
          title="One workflow from enquiry to settlement"
          lead="Most bond trades still move between phone calls, chat groups and spreadsheets. Dart keeps them in one place."
        />
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="lg">
          {STEPS.map((step, index) => (
            <Paper key={step.title} withBorder radius="lg" p="lg">
              <Stack gap="sm">
                <Group justify="space-between">
                  <ThemeIcon size={40} radius="md" variant="light">
                    {step.icon}
                  </ThemeIcon>
                  <Text className={classes.stepNumber}>0{index + 1}</Text>
                </Group>
                <Title order={3} fz={18}>
                  {step.title}
                </Title>
                <Text size="sm" c="dimmed">
                  {step.text}
                </Text>
              </Stack>
            </Paper>
          ))}
        </SimpleGrid>
      </Section>

      <Section alt>
        <SectionTitle title="Built for every desk" lead="Institutional or individual, buy side or sell side." />
        <FeatureGrid features={DESKS} cols={4} />
      </Section>

      <Section>
        <SectionTitle title="Control built in" lead="The right access for every seat, and a record of everything that happened." />
        <FeatureGrid features={CONTROLS} />
      </Section>

      <Section>
        <div className={classes.ctaBand}>
          <Group justify="space-between" gap="lg">
            <Stack gap={6}>
              <Badge variant="white" color="dart" radius="sm" w="fit-content">
                Get started
              </Badge>
              <Title order={2} c="white" fz={28}>
                Bring your desk to Dart
              </Title>
              <Text className={classes.heroText}>Register in a few minutes, then invite your colleagues.</Text>
            </Stack>
            <Group gap="sm">
              <ButtonLink to="/client/register" variant="white" size="md">
                Register
              </ButtonLink>
              <ButtonLink to="/contact" variant="outline" color="white" size="md">
                Talk to us
              </ButtonLink>
            </Group>
          </Group>
        </div>
      </Section>
    </>
  );
}
