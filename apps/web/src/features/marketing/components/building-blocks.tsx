import { Container, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './marketing.module.css';

/** The blue hero; `overlay` leaves room for a header drawn on top of it (index, noheader layouts). */
export function Hero({ children, overlay = false }: { children: ReactNode; overlay?: boolean }) {
  return (
    <section className={`${classes.hero} ${overlay ? classes.heroOverlay : ''}`}>
      <Container size="xl" py={{ base: 48, md: 88 }}>
        {children}
      </Container>
    </section>
  );
}

export function Eyebrow({ children }: { children: ReactNode }) {
  return (
    <Text size="xs" fw={700} tt="uppercase" className={classes.eyebrow}>
      {children}
    </Text>
  );
}

export function Section({ children, alt = false, id }: { children: ReactNode; alt?: boolean; id?: string }) {
  return (
    <section className={alt ? classes.sectionAlt : classes.section} id={id}>
      <Container size="xl">{children}</Container>
    </section>
  );
}

export function SectionTitle({ title, lead }: { title: string; lead?: string }) {
  return (
    <Stack gap={8} mb={36} maw={720}>
      <Title order={2} fz={{ base: 26, md: 32 }} style={{ letterSpacing: '-0.02em' }}>
        {title}
      </Title>
      {lead ? (
        <Text c="dimmed" size="lg">
          {lead}
        </Text>
      ) : null}
    </Stack>
  );
}

export interface Feature {
  icon: ReactNode;
  title: string;
  text: string;
}

export function FeatureGrid({ features, cols = 3 }: { features: readonly Feature[]; cols?: 2 | 3 | 4 }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: cols }} spacing="lg">
      {features.map((feature) => (
        <Paper key={feature.title} withBorder radius="lg" p="lg">
          <Stack gap="sm">
            <ThemeIcon size={42} radius="md" variant="light">
              {feature.icon}
            </ThemeIcon>
            <Title order={3} fz={18}>
              {feature.title}
            </Title>
            <Text size="sm" c="dimmed">
              {feature.text}
            </Text>
          </Stack>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** A plain-language policy page: a heading and numbered sections. */
export function PolicyPage({
  title,
  intro,
  sections,
}: {
  title: string;
  intro: string;
  sections: readonly { heading: string; body: readonly string[] }[];
}) {
  return (
    <>
      <div className={classes.pageTop}>
        <Container size="md">
          <Title order={1} fz={{ base: 30, md: 38 }} style={{ letterSpacing: '-0.02em' }}>
            {title}
          </Title>
          <Text c="dimmed" size="lg" mt="sm" maw={680}>
            {intro}
          </Text>
        </Container>
      </div>
      <Container size="md" py={40}>
        <Stack gap={28}>
          {sections.map((section, index) => (
            <section key={section.heading}>
              <Title order={2} fz={20} mb="xs">
                {index + 1}. {section.heading}
              </Title>
              <Stack gap="xs">
                {section.body.map((paragraph) => (
                  <Text key={paragraph} lh={1.7}>
                    {paragraph}
                  </Text>
                ))}
              </Stack>
            </section>
          ))}
        </Stack>
      </Container>
    </>
  );
}

export function PageTop({ title, lead, children }: { title: string; lead: string; children?: ReactNode }) {
  return (
    <div className={classes.pageTop}>
      <Container size="xl">
        <Title order={1} fz={{ base: 30, md: 40 }} style={{ letterSpacing: '-0.02em' }}>
          {title}
        </Title>
        <Text c="dimmed" size="lg" mt="sm" maw={720}>
          {lead}
        </Text>
        {children}
      </Container>
    </div>
  );
}
