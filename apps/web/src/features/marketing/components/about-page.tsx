import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { BuildingIcon, ChartIcon, NetworkIcon, ShieldIcon } from '../../../components/ui/icons';
import { ButtonLink } from '../../../components/ui/router-links';
import { Eyebrow, FeatureGrid, Hero, Section, SectionTitle } from './building-blocks';
import classes from './marketing.module.css';

const PRINCIPLES = [
  {
    icon: <BuildingIcon />,
    title: 'Exchanges stay at the centre',
    text: 'Deals are reported on the NSE and BSE RFQ platforms and settled by their clearing corporations. Dart does not replace market infrastructure; it connects your desk to it.',
  },
  {
    icon: <NetworkIcon />,
    title: 'Your network, your rules',
    text: 'You decide who sees your quotes and runs. Private runs go only to the counterparties you choose.',
  },
  {
    icon: <ChartIcon />,
    title: 'Conventions done right',
    text: 'Yields, prices and accrued interest follow the day counts and settlement rules of Indian instruments, so numbers match what the exchange computes.',
  },
  {
    icon: <ShieldIcon />,
    title: 'Compliance by design',
    text: 'Roles and permissions are enforced on every screen and every request, and every change is recorded in an audit trail your compliance team can read.',
  },
];

export function AboutPage() {
  return (
    <>
      <Hero overlay>
        <Stack gap="lg" maw={760}>
          <Eyebrow>About Dart</Eyebrow>
          <Title order={1} fz={{ base: 34, md: 48 }} className={classes.heroTitle}>
            Making India&apos;s bond market easier to trade
          </Title>
          <Text size="xl" className={classes.heroText}>
            India&apos;s corporate bond market is large and growing, yet much of it still trades over phone calls and chat groups. Dart
            gives dealers one screen to find bonds, price them, negotiate with their network and report the deal, with the controls
            institutions need.
          </Text>
        </Stack>
      </Hero>
      <Section>
        <SectionTitle title="What we believe" />
        <FeatureGrid features={PRINCIPLES} cols={2} />
      </Section>
      <Section alt>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
          <Stack gap="sm">
            <Title order={2} fz={26}>
              Who uses Dart
            </Title>
            <Text c="dimmed">
              Corporate treasuries, banks, mutual funds, insurers, brokers, family offices and wealth managers use Dart to trade corporate
              bonds, government securities and money-market instruments. Each organisation controls its own users, roles and exchange
              credentials.
            </Text>
          </Stack>
          <Stack gap="sm" align="flex-start">
            <Title order={2} fz={26}>
              Talk to us
            </Title>
            <Text c="dimmed">
              Want to see how Dart fits your desk, or bring your counterparties on board? We would like to hear from you.
            </Text>
            <ButtonLink to="/contact">Contact the team</ButtonLink>
          </Stack>
        </SimpleGrid>
      </Section>
    </>
  );
}
