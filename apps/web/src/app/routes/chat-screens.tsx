import { PageHeader } from '../../components/ui/page-header';
import { ChatWorkspace } from '../../features/chat';
import { chatSlots } from './chat-slots';

/** /chat (our addition to the route table): the chat workspace on a full page, with private runs. */
export function ChatScreen() {
  return (
    <>
      <PageHeader title="Chat" description="Direct chats, groups, trading groups and broadcast lists with your counterparties." />
      <ChatWorkspace variant="full" {...chatSlots} />
    </>
  );
}
