import { Loader, Paper, Stack, Text, ThemeIcon, Title, Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { CheckIcon } from '../../../components/ui/icons';
import { ButtonLink } from '../../../components/ui/router-links';
import { signOut } from '../api/sign-out';

/** /auth/logout: signs out once on arrival, then confirms it. */
export function SignedOut() {
  const queryClient = useQueryClient();
  const started = useRef(false);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void signOut(queryClient).finally(() => setDone(true));
  }, [queryClient]);

  return (
    <Paper withBorder radius="lg" p="xl" maw={480} mx="auto" my={48} shadow="xs">
      {done ? (
        <Stack align="center" gap="md" ta="center">
          <ThemeIcon size={52} radius="xl" variant="light" color="teal">
            <CheckIcon size={26} />
          </ThemeIcon>
          <Title order={1} fz={24}>
            You have signed out
          </Title>
          <Text c="dimmed">Your session on this device has ended. Sign in again to get back to your desk.</Text>
          <Group>
            <ButtonLink to="/auth/login">Sign in again</ButtonLink>
            <ButtonLink to="/" variant="default">
              Go to the home page
            </ButtonLink>
          </Group>
        </Stack>
      ) : (
        <Stack align="center" gap="md" role="status">
          <Loader />
          <Text>Signing you out…</Text>
        </Stack>
      )}
    </Paper>
  );
}
