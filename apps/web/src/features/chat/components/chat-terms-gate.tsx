import { Alert, Button, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { ChatIcon } from '../../../components/ui/icons';
import { AnchorLink } from '../../../components/ui/router-links';
import { PRODUCT_NAME } from '../../../config/site';
import { describeError } from '../../../lib/errors';
import { useAcceptChatTerms } from '../api/accept-chat-terms';
import { playSound } from '../../../lib/sounds';

/** Chat is blocked until the user accepts the chat terms (issue 6); the chat policy page is linked. */
export function ChatTermsGate({ compact = false }: { compact?: boolean }) {
  const accept = useAcceptChatTerms();
  return (
    <Paper p={compact ? 'md' : 'xl'} radius="md" withBorder={!compact} data-testid="chat-terms" maw={640} mx="auto" my={compact ? 0 : 'lg'}>
      <Stack gap="sm">
        <ThemeIcon variant="light" size="lg" radius="xl">
          <ChatIcon />
        </ThemeIcon>
        <Title order={compact ? 4 : 3}>Chat terms</Title>
        <Text size="sm">
          {PRODUCT_NAME} chat lets you negotiate with your counterparties in direct chats, groups, trading groups and broadcast lists.
          Before you start:
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>
            Messages and files are stored and may be reviewed by your firm&apos;s compliance team and exported for audit.
          </List.Item>
          <List.Item>Quotes and prices shared in chat are indicative until a trade is confirmed on the platform.</List.Item>
          <List.Item>Do not share passwords, one-time codes or client personal data in chat.</List.Item>
        </List>
        <Text size="sm">
          Read the full{' '}
          <AnchorLink to="/chat-policy" target="_blank" data-testid="chat-policy-link">
            chat policy
          </AnchorLink>
          .
        </Text>
        {accept.error ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(accept.error)}
          </Alert>
        ) : null}
        <Button
          w="fit-content"
          loading={accept.isPending}
          onClick={() => accept.mutate(undefined, { onSuccess: () => playSound('success'), onError: () => playSound('error') })}
        >
          Accept and start chatting
        </Button>
      </Stack>
    </Paper>
  );
}
