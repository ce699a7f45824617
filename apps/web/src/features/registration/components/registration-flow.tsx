import type { SessionUser } from '@dart/contracts';
import { Badge, Group, Paper, Stack, Stepper, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { CheckIcon } from '../../../components/ui/icons';
import { AnchorLink } from '../../../components/ui/router-links';
import type { InviteDetails } from '../api/validate-invite';
import { ClientDetailsStep } from './client-details-step';
import { VerifyEmailStep } from './verify-email-step';

interface RegistrationFlowProps {
  invite?: InviteDetails;
  onRegistered: (user: SessionUser) => void;
}

/** Client registration: verify the e-mail with a code, then the details; ends signed in. */
export function RegistrationFlow({ invite, onRegistered }: RegistrationFlowProps) {
  const [verified, setVerified] = useState<{ email: string; verification: string } | null>(null);

  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }} shadow="sm">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} fz={26}>
            {invite ? `Join ${invite.clientName} on Dart` : 'Register your organisation'}
          </Title>
          <Text c="dimmed" size="sm">
            {invite
              ? 'Your administrator invited you. Confirm your e-mail and add your details to get started.'
              : 'Open a Dart account for your treasury, fund or family office in two short steps.'}
          </Text>
        </Stack>
        <Stepper active={verified ? 1 : 0} size="sm" allowNextStepsSelect={false} completedIcon={<CheckIcon size={16} />}>
          <Stepper.Step label="Verify e-mail" description={verified ? verified.email : 'One-time code'}>
            <VerifyEmailStep
              {...(invite ? { invitedEmail: invite.email } : {})}
              onVerified={(email, verification) => setVerified({ email, verification })}
            />
          </Stepper.Step>
          <Stepper.Step label="Your details" description="Identity and sign-in">
            {verified ? (
              <Stack gap="md">
                <Group gap="xs">
                  <Badge color="teal" variant="light" leftSection={<CheckIcon size={12} />}>
                    E-mail verified
                  </Badge>
                  <Text size="sm">{verified.email}</Text>
                </Group>
                <ClientDetailsStep
                  email={verified.email}
                  verification={verified.verification}
                  {...(invite ? { invite } : {})}
                  onRegistered={onRegistered}
                />
              </Stack>
            ) : null}
          </Stepper.Step>
        </Stepper>
        <Text size="sm" ta="center" c="dimmed">
          Already have an account? <AnchorLink to="/auth/login">Sign in</AnchorLink>
        </Text>
      </Stack>
    </Paper>
  );
}
