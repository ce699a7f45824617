import { PageHeader } from '../../components/ui/page-header';
import { ChatWorkspace } from '../../features/chat';

/** /chat (our addition to the route table): the chat workspace on a full page. */
export function ChatScreen() {
  return (
    <>
      <PageHeader title="Chat" description="Direct chats, groups, trading groups and broadcast lists with your counterparties." />
      <ChatWorkspace variant="full" />
    </>
  );
}
