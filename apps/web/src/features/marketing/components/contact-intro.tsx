import { Stack, Text, ThemeIcon, Title, Group } from '@mantine/core';
import { ChatIcon, MailIcon, NetworkIcon } from '../../../components/ui/icons';

const REASONS = [
  { icon: <NetworkIcon size={18} />, title: 'Onboarding', text: 'Set up your organisation, users and exchange credentials.' },
  { icon: <ChatIcon size={18} />, title: 'A demo', text: 'See the workspace with your own instruments and counterparties.' },
  { icon: <MailIcon size={18} />, title: 'Anything else', text: 'Plans, data, security reviews or feedback.' },
];

export function ContactIntro() {
  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Title order={1} fz={{ base: 30, md: 38 }} style={{ letterSpacing: '-0.02em' }}>
          Contact us
        </Title>
        <Text c="dimmed" size="lg">
          Tell us about your desk. A member of the team will reply by e-mail.
        </Text>
      </Stack>
      {REASONS.map((reason) => (
        <Group key={reason.title} gap="md" align="flex-start" wrap="nowrap">
          <ThemeIcon variant="light" size={36} radius="md">
            {reason.icon}
          </ThemeIcon>
          <div>
            <Text fw={600}>{reason.title}</Text>
            <Text size="sm" c="dimmed">
              {reason.text}
            </Text>
          </div>
        </Group>
      ))}
    </Stack>
  );
}
