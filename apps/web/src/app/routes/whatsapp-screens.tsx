import { Stack } from '@mantine/core';
import { PageHeader } from '../../components/ui/page-header';
import { WhatsAppMessageLog } from '../../features/whatsapp';

/** /whatsapp/messages (issue 16 §2, ours): the firm's WhatsApp messages for its compliance officers and ops admins. */
export function WhatsAppMessagesScreen() {
  return (
    <Stack gap="lg">
      <PageHeader
        title="WhatsApp messages"
        description="Every message that crossed the WhatsApp link for your organisation: alerts sent, chat messages relayed, replies received, each with its delivery history. Kept like chat messages."
      />
      <WhatsAppMessageLog />
    </Stack>
  );
}
