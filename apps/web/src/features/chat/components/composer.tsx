import {
  CHAT_FILE_TYPES,
  CHAT_LIMITS,
  CHAT_MESSAGES,
  PRIVATE_RUN_CUSTOM_TYPE,
  type Channel,
  type ChatMessage,
  type SendMessage,
} from '@dart/contracts';
import { ActionIcon, Alert, Button, Group, Modal, Progress, Stack, Text, Textarea, Tooltip, VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { QuoteIcon } from '../../../components/ui/icons';
import { describeError } from '../../../lib/errors';
import { canTrade, useSession } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { editChatMessage } from '../api/edit-message';
import { useMessages } from '../api/list-messages';
import { sendChatMessage } from '../api/send-message';
import { uploadChatFile } from '../api/upload-file';
import { useChat } from '../hooks/chat-context';
import { addMessage, replaceMessage } from '../utils/chat-cache';
import { formatIndianNumber } from '@dart/contracts';
import { lastEditableMessage } from '../utils/message-actions';
import { BUZZ_CUSTOM_TYPE, BUZZ_TEXT } from '../utils/message-kinds';
import { PRIVATE_RUN_TEXT, privateRunFirms } from '../utils/private-run';
import { playSound } from '../../../lib/sounds';
import { BellIcon, PaperclipIcon, SendIcon } from './chat-icons';
import type { ChatSlots } from './chat-slots';
import classes from './chat.module.css';

const newReqId = () => crypto.randomUUID();
/** Send `typing: true` at most this often while typing; `false` after this much quiet. */
const TYPING_REFRESH_MS = 3000;
const TYPING_IDLE_MS = 2500;

interface Upload {
  name: string;
  progress: number;
}

interface ComposerProps extends Pick<ChatSlots, 'renderPrivateRunForm'> {
  channel: Channel;
  /** The message being edited (the composer holds its text), or null to write a new one. */
  editing?: ChatMessage | null;
  /** Starts (a message) or ends (null) editing. */
  onEdit?: (message: ChatMessage | null) => void;
}

/**
 * The composer: Enter sends, Shift+Enter adds a line; the paperclip uploads a file with a progress
 * bar (spec §8 'Error uploading file' or the server's message); the bell buzzes the channel.
 * Editing: Up arrow in an empty composer edits my last message (or Edit in a message's menu); the
 * text moves into the composer, Enter saves, Escape cancels, and the draft comes back afterwards.
 * "Send a private run" (when the route gives the form, the user can trade and another firm is in the
 * chat) opens the route's quote form addressed to those firms; the quote is then sent as a
 * `private_run` message, whose card the server writes.
 */
export function Composer({ channel, editing = null, onEdit = () => undefined, renderPrivateRunForm }: ComposerProps) {
  const { getClient, buzz, myUserId } = useChat();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const [privateRunOpen, setPrivateRunOpen] = useState(false);
  const myClientId = user?.client_id ?? '';
  const firms = useMemo(() => privateRunFirms(channel, myClientId), [channel, myClientId]);
  const canSendPrivateRun = Boolean(renderPrivateRunForm) && canTrade(user) && firms.length > 0;
  const messagesQuery = useMessages(channel.url);
  const [text, setText] = useState('');
  const textarea = useRef<HTMLTextAreaElement>(null);
  // Entering edit mode keeps the draft and shows the message's text; leaving it restores the draft
  // (state adjusted while rendering, so the textarea never shows the wrong text for a frame).
  const editingId = editing?.messageId ?? null;
  const [shownEditingId, setShownEditingId] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  if (editingId !== shownEditingId) {
    setShownEditingId(editingId);
    if (shownEditingId === null) setDraft(text);
    setText(editing ? editing.message : draft);
    if (!editing) setDraft('');
  }
  useEffect(() => {
    const element = textarea.current;
    if (!editingId || !element) return;
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
  }, [editingId]);
  const [sending, setSending] = useState(false);
  const [upload, setUpload] = useState<Upload | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const typingState = useRef<{ sentAt: number; idle: ReturnType<typeof setTimeout> | null }>({ sentAt: 0, idle: null });
  const url = channel.url;

  const stopTyping = useCallback(() => {
    const state = typingState.current;
    if (state.idle) clearTimeout(state.idle);
    state.idle = null;
    if (state.sentAt > 0) getClient()?.typing(url, false);
    state.sentAt = 0;
  }, [getClient, url]);
  // Leaving the channel (or unmounting) ends "typing".
  useEffect(() => stopTyping, [stopTyping]);

  const onChange = (event: ChangeEvent<HTMLTextAreaElement>) => {
    setText(event.currentTarget.value);
    if (editing) return; // editing is not "typing" a new message
    const state = typingState.current;
    if (Date.now() - state.sentAt > TYPING_REFRESH_MS) {
      getClient()?.typing(url, true);
      state.sentAt = Date.now();
    }
    if (state.idle) clearTimeout(state.idle);
    state.idle = setTimeout(stopTyping, TYPING_IDLE_MS);
  };

  /** Sends one message (socket, else HTTP with the same reqId) and adds the stored copy to the list. */
  const deliver = async (body: Omit<SendMessage, 'reqId'>) => {
    const stored = await sendChatMessage(getClient(), url, { reqId: newReqId(), ...body });
    addMessage(queryClient, stored);
  };

  const send = async (message: string, customType: string | null = null) => {
    setSending(true);
    try {
      await deliver({ message, data: {}, customType });
      return true;
    } catch (error) {
      showToast({ summary: 'Message not sent', detail: describeError(error), severity: 'error' });
      playSound('error');
      return false;
    } finally {
      setSending(false);
    }
  };

  const submit = async () => {
    const message = text.trim();
    if (!message || sending) return;
    if (message.length > CHAT_LIMITS.messageMaxLength) {
      showToast({
        summary: 'Message too long',
        detail: `At most ${formatIndianNumber(CHAT_LIMITS.messageMaxLength, 0)} characters.`,
        severity: 'error',
      });
      return;
    }
    stopTyping();
    setText('');
    if (!(await send(message))) setText(message);
  };

  const saveEdit = async () => {
    if (!editing || sending) return;
    const message = text.trim();
    if (!message) {
      showToast({ summary: 'Message not changed', detail: CHAT_MESSAGES.emptyMessage, severity: 'error' });
      return;
    }
    if (message === editing.message) return onEdit(null);
    setSending(true);
    try {
      replaceMessage(queryClient, await editChatMessage(url, editing.messageId, message));
      onEdit(null);
    } catch (error) {
      showToast({ summary: 'Message not changed', detail: describeError(error), severity: 'error' });
      playSound('error');
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    const plain = !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey;
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void (editing ? saveEdit() : submit());
    } else if (event.key === 'Escape' && editing) {
      event.preventDefault();
      event.stopPropagation();
      onEdit(null);
    } else if (event.key === 'ArrowUp' && plain && !editing && text === '' && myUserId) {
      const last = lastEditableMessage(messagesQuery.data?.pages.toReversed().flatMap((page) => page.messages) ?? [], myUserId);
      if (!last) return;
      event.preventDefault();
      stopTyping();
      onEdit(last);
    }
  };

  // The form shows a refusal (the spec's PRIVATE_RUN_MESSAGES) itself; success closes the dialog.
  const postPrivateRun = async (quoteId: string) => {
    try {
      await deliver({ message: PRIVATE_RUN_TEXT, data: { quote_id: quoteId }, customType: PRIVATE_RUN_CUSTOM_TYPE });
    } catch (error) {
      playSound('error');
      throw error;
    }
    setPrivateRunOpen(false);
    playSound('success');
  };

  const onBuzz = async () => {
    buzz.start(url);
    await send(BUZZ_TEXT, BUZZ_CUSTOM_TYPE);
  };

  const onFile = async (file: File | undefined) => {
    if (fileInput.current) fileInput.current.value = '';
    if (!file) return;
    setUploadError(null);
    if (file.size > CHAT_LIMITS.fileMaxBytes) return failUpload(CHAT_MESSAGES.fileTooLarge);
    if (file.type && !(CHAT_FILE_TYPES as readonly string[]).includes(file.type)) return failUpload(CHAT_MESSAGES.fileTypeNotAllowed);
    setUpload({ name: file.name, progress: 0 });
    try {
      const stored = await uploadChatFile(url, file, newReqId(), (fraction) =>
        setUpload((current) => (current ? { ...current, progress: fraction } : current)),
      );
      if (stored) addMessage(queryClient, stored);
      playSound('success');
    } catch (error) {
      failUpload(error instanceof Error && error.message ? error.message : CHAT_MESSAGES.fileUploadFailed);
    } finally {
      setUpload(null);
    }
  };
  function failUpload(message: string) {
    setUploadError(message);
    playSound('error');
  }

  const inputId = `chat-file-${url}`;
  return (
    <Stack gap={6} className={classes.composer}>
      {upload ? (
        <Stack gap={2} data-testid="chat-upload">
          <Text size="xs" c="dimmed" truncate="end">
            Uploading {upload.name} · {Math.round(upload.progress * 100)}%
          </Text>
          <Progress
            value={upload.progress * 100}
            size="sm"
            animated
            aria-label={`Uploading ${upload.name}`}
            data-testid="chat-upload-progress"
          />
        </Stack>
      ) : null}
      {uploadError ? (
        <Alert
          color="red"
          variant="light"
          py={6}
          withCloseButton
          onClose={() => setUploadError(null)}
          data-testid="chat-upload-error"
          role="alert"
        >
          {uploadError}
        </Alert>
      ) : null}
      {editing ? (
        <Group gap={6} justify="space-between" wrap="nowrap" className={classes.editing} data-testid="chat-editing">
          <Text size="xs" c="dimmed" id={`chat-editing-${url}`}>
            Editing your message · Enter to save, Esc to cancel
          </Text>
          <Button size="compact-xs" variant="subtle" onClick={() => onEdit(null)}>
            Cancel
          </Button>
        </Group>
      ) : null}
      <Group gap={6} align="flex-end" wrap="nowrap">
        <VisuallyHidden>
          <label htmlFor={inputId}>Attach a file</label>
        </VisuallyHidden>
        <input
          ref={fileInput}
          id={inputId}
          type="file"
          hidden
          accept={CHAT_FILE_TYPES.join(',')}
          onChange={(event) => void onFile(event.currentTarget.files?.[0])}
          data-testid="chat-file-input"
        />
        <Tooltip label="Attach a file">
          <ActionIcon
            variant="subtle"
            size="lg"
            aria-label="Attach a file"
            onClick={() => fileInput.current?.click()}
            disabled={upload !== null || editing !== null}
          >
            <PaperclipIcon />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Buzz">
          <ActionIcon
            variant="subtle"
            size="lg"
            aria-label="Buzz"
            onClick={() => void onBuzz()}
            disabled={sending || editing !== null}
            data-testid="chat-buzz"
          >
            <BellIcon />
          </ActionIcon>
        </Tooltip>
        {canSendPrivateRun ? (
          <Tooltip label="Send a quote">
            <ActionIcon
              variant="subtle"
              size="lg"
              aria-label="Send a private run"
              aria-haspopup="dialog"
              onClick={() => setPrivateRunOpen(true)}
              disabled={editing !== null}
              data-testid="chat-private-run-open"
            >
              <QuoteIcon />
            </ActionIcon>
          </Tooltip>
        ) : null}
        <Textarea
          style={{ flex: 1 }}
          ref={textarea}
          aria-label="Message"
          aria-describedby={editing ? `chat-editing-${url}` : undefined}
          placeholder="Type a message · Enter to send, Shift+Enter for a new line, ↑ to edit your last"
          autosize
          minRows={1}
          maxRows={5}
          value={text}
          onChange={onChange}
          onKeyDown={onKeyDown}
          maxLength={CHAT_LIMITS.messageMaxLength}
          data-testid="chat-composer"
        />
        <ActionIcon
          size="lg"
          aria-label={editing ? 'Save edit' : 'Send'}
          onClick={() => void (editing ? saveEdit() : submit())}
          loading={sending}
          disabled={text.trim() === ''}
        >
          <SendIcon />
        </ActionIcon>
      </Group>
      {canSendPrivateRun && renderPrivateRunForm ? (
        <Modal
          opened={privateRunOpen}
          onClose={() => setPrivateRunOpen(false)}
          title={<Text fw={600}>Private run to this chat</Text>}
          size="md"
          data-testid="chat-private-run-dialog"
        >
          {renderPrivateRunForm({ counterparties: firms, postToChat: postPrivateRun })}
        </Modal>
      ) : null}
    </Stack>
  );
}
