import { Container, Paper, SimpleGrid } from '@mantine/core';
import { ContactForm } from '../../features/contact';
import { ContactIntro } from '../../features/marketing';
import { useSession } from '../../lib/session';

export function ContactScreen() {
  const { user } = useSession();
  const defaults = user
    ? { name: `${user.user_info.first_name} ${user.user_info.last_name}`.trim(), email: user.user_info.email, company: user.name }
    : undefined;
  return (
    <Container size="xl" py={{ base: 32, md: 64 }}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48}>
        <ContactIntro />
        <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }} shadow="xs">
          <ContactForm {...(defaults ? { defaults } : {})} key={user?.user_info.id ?? 'visitor'} />
        </Paper>
      </SimpleGrid>
    </Container>
  );
}
