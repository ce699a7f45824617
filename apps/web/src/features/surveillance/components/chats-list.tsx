import { SURVEILLANCE_CHAT_MESSAGES } from '@dart/contracts';
import { Badge, Button, Group, Pagination, Paper, ScrollArea, Table, Text, TextInput, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { ChatIcon, SearchIcon } from '../../../components/ui/icons';
import { PRODUCT_NAME } from '../../../config/site';
import { formatCount, formatDateTime } from '../../../lib/format';
import { useTranscriptExport } from '../api/export-chat';
import { CHAT_PAGE_SIZE, useChats, type SurveillanceChat } from '../api/get-chats';
import { chatTitle, chatTypeLabel, memberLabel, otherFirms } from '../utils/chat-format';
import { chatPeriodErrors, defaultChatPeriod, describePeriod, type ChatPeriod } from '../utils/chat-period';
import { ChatDrawer } from './chat-drawer';
import classes from './surveillance.module.css';
import { ListStates } from './list-states';

const SEARCH_MAX = 100;

/**
 * The firm's chats (every chat with a member of the firm, past or present): search by chat name, member or firm, a
 * period of IST days shared by Read (the drawer's messages) and Export transcript (`POST /api/download-chats`).
 */
export function ChatsList() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [period, setPeriod] = useState<ChatPeriod>(() => defaultChatPeriod(new Date()));
  const [reading, setReading] = useState<SurveillanceChat | null>(null);
  const searchError = debounced.length > SEARCH_MAX ? SURVEILLANCE_CHAT_MESSAGES.searchTooLong : undefined;
  const periodErrors = chatPeriodErrors(period);
  const periodValid = Object.keys(periodErrors).length === 0;
  const query = useChats(debounced, page, !searchError);
  const data = query.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.count / CHAT_PAGE_SIZE)) : 1;

  const { exportingId, exportTranscript } = useTranscriptExport(period);

  const setDay = (key: keyof ChatPeriod, value: string) => setPeriod((current) => ({ ...current, [key]: value }));

  return (
    <Paper withBorder radius="lg" p={0} style={{ overflow: 'hidden' }} component="section" aria-labelledby="chats-heading">
      <Group justify="space-between" px="lg" pt="md" pb="xs" wrap="wrap">
        <div>
          <Text fw={600} id="chats-heading">
            Chats
          </Text>
          <Text size="sm" c="dimmed" aria-live="polite" data-testid="chats-count">
            {searchError
              ? 'Correct the search to see chats'
              : data
                ? `${formatCount(data.count)} ${data.count === 1 ? 'chat' : 'chats'} with your organisation's people, latest first`
                : 'Loading chats…'}
          </Text>
        </div>
        <Button variant="default" size="xs" onClick={() => void query.refetch()} loading={query.isFetching} disabled={!!searchError}>
          Refresh chats
        </Button>
      </Group>
      <form role="search" aria-label="Find a chat and choose the period" onSubmit={(event) => event.preventDefault()}>
        <Group px="lg" pb="md" gap="xs" align="flex-start" wrap="wrap">
          <TextInput
            label="Search chats"
            placeholder="Chat, member or firm"
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
            error={searchError}
            leftSection={<SearchIcon size={14} />}
            w={260}
            size="xs"
          />
          <TextInput
            type="date"
            label="Messages from (IST)"
            value={period.from}
            onChange={(event) => setDay('from', event.currentTarget.value)}
            error={periodErrors.from}
            w={170}
            size="xs"
          />
          <TextInput
            type="date"
            label="Messages to (IST)"
            value={period.to}
            onChange={(event) => setDay('to', event.currentTarget.value)}
            error={periodErrors.to}
            w={170}
            size="xs"
          />
        </Group>
      </form>
      <ListStates
        query={query}
        valid={!searchError}
        hasData={Boolean(data)}
        isEmpty={data?.results.length === 0}
        narrowed={Boolean(debounced)}
        errorTitle="Could not load the chats"
        noMatch={{ title: 'No chats match this search', description: "Search by the chat's name, a member's name or a firm." }}
        none={{
          icon: <ChatIcon size={28} />,
          title: 'No chats yet',
          description: "Chats your organisation's people take part in will be listed here.",
        }}
        skeletonRows={4}
        skeletonHeight={32}
      >
        {data ? (
          <ScrollArea>
            <Table highlightOnHover verticalSpacing={6} horizontalSpacing="md" miw={980} fz="sm" aria-label="Your organisation's chats">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Chat</Table.Th>
                  <Table.Th w={120}>Kind</Table.Th>
                  <Table.Th>Members</Table.Th>
                  <Table.Th w={100} ta="right">
                    Messages
                  </Table.Th>
                  <Table.Th w={160}>Last message</Table.Th>
                  <Table.Th w={230}>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }}>
                {data.results.map((chat) => {
                  const title = chatTitle(chat);
                  const others = otherFirms(chat);
                  return (
                    <Table.Tr key={chat.id} data-testid="chat-row" data-url={chat.url}>
                      <Table.Td>
                        <UnstyledButton
                          className={classes.title}
                          onClick={() => setReading(chat)}
                          disabled={!periodValid}
                          aria-haspopup="dialog"
                        >
                          {title}
                        </UnstyledButton>
                        <Text size="xs" c="dimmed">
                          {others.length > 0 ? `With ${others.join(', ')}` : 'Your organisation only'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4}>
                          <Badge variant="light" color="gray" radius="sm" tt="none" fw={500}>
                            {chatTypeLabel(chat.type)}
                          </Badge>
                          {chat.whatsapp_linked ? (
                            <Badge variant="light" color="teal" radius="sm" tt="none" fw={500}>
                              WhatsApp
                            </Badge>
                          ) : null}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs" lineClamp={2} title={chat.members.map((m) => memberLabel(m, PRODUCT_NAME)).join('; ')}>
                          {chat.members.map((m) => memberLabel(m, PRODUCT_NAME)).join('; ')}
                        </Text>
                      </Table.Td>
                      <Table.Td ta="right" className={classes.mono}>
                        {formatCount(chat.message_count)}
                      </Table.Td>
                      <Table.Td className={classes.mono}>
                        {chat.last_message_at ? (
                          formatDateTime(chat.last_message_at)
                        ) : (
                          <Text span size="sm" c="dimmed">
                            None
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap" justify="flex-end">
                          <Button
                            size="xs"
                            variant="light"
                            onClick={() => setReading(chat)}
                            disabled={!periodValid}
                            aria-label={`Read ${title}`}
                            aria-haspopup="dialog"
                          >
                            Read
                          </Button>
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() => void exportTranscript(chat)}
                            loading={exportingId === chat.id}
                            disabled={!periodValid}
                            aria-label={`Export transcript of ${title}, ${describePeriod(period)}`}
                          >
                            Export transcript
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        ) : null}
      </ListStates>
      {!searchError && data && totalPages > 1 ? (
        <Group justify="space-between" px="lg" py="md">
          <Text size="sm" c="dimmed">
            Page {formatCount(page)} of {formatCount(totalPages)}
          </Text>
          <Pagination total={totalPages} value={page} onChange={setPage} size="sm" aria-label="Chat pages" />
        </Group>
      ) : null}
      <ChatDrawer chat={reading} period={period} onClose={() => setReading(null)} />
    </Paper>
  );
}
