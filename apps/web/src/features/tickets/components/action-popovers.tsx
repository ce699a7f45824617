import { TICKET_MESSAGES, type Ticket } from '@dart/contracts';
import { Button, Group, Popover, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { describeError } from '../../../lib/errors';
import { useSession } from '../../../lib/session';
import type { Custodian } from '../api/search-custodians';
import type { TicketCommands } from '../hooks/use-ticket-commands';
import type { PickedParticipant } from '../utils/participants';
import { CustodianSelect, lastCustodian, rememberCustodian } from './custodian-select';
import { ParticipantSelect } from './participant-select';

interface PopoverActionProps {
  ticket: Ticket;
  commands: TicketCommands;
  /** Told of a refusal (shown in the popover too). */
  onError?: (error: unknown) => void;
  size?: 'compact-xs' | 'compact-sm' | 'sm';
}

/**
 * The popover actions' shared state: open or not, the field error, a call in flight. `run` sends the call and closes
 * the popover when it succeeds, or shows the refusal in the popover and tells `onError`.
 */
function usePopoverAction(onError: ((error: unknown) => void) | undefined) {
  const [opened, setOpened] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  async function run(call: () => Promise<void>): Promise<void> {
    setBusy(true);
    try {
      await call();
      setOpened(false);
    } catch (caught) {
      setError(describeError(caught));
      onError?.(caught);
    } finally {
      setBusy(false);
    }
  }
  return { opened, setOpened, error, setError, busy, run };
}

/** Accept consideration → the custodian (the firm's last one chosen first) → Accept. Enter accepts. */
export function AcceptConsiderationButton({ ticket, commands, onError, size = 'compact-xs' }: PopoverActionProps) {
  const { user } = useSession();
  const clientId = user?.client_id ?? '';
  const { opened, setOpened, error, setError, busy, run } = usePopoverAction(onError);
  const [custodian, setCustodian] = useState<Custodian | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!custodian) {
      setError(TICKET_MESSAGES.custodianRequired);
      return;
    }
    await run(async () => {
      await commands.accept(ticket, custodian);
      rememberCustodian(clientId, custodian);
    });
  }

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      trapFocus
      withArrow
      position="bottom-end"
      shadow="md"
      width={300}
      withinPortal
      returnFocus
    >
      <Popover.Target>
        <Button
          size={size}
          color="teal"
          onClick={(event) => {
            event.stopPropagation();
            setCustodian((held) => held ?? lastCustodian(clientId));
            setError(undefined);
            setOpened((o) => !o);
          }}
        >
          Accept consideration
        </Button>
      </Popover.Target>
      <Popover.Dropdown onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()}>
        <form onSubmit={submit} aria-label={`Accept the consideration of ${ticket.number}`}>
          <Stack gap="xs">
            <Text size="xs" c="dimmed">
              Your side settles through this custodian (DVP-I at {ticket.clearing_corporation}).
            </Text>
            <CustodianSelect
              value={custodian}
              onChange={(next) => {
                setCustodian(next);
                setError(undefined);
              }}
              error={error}
              autoFocus
            />
            <Group justify="flex-end" gap="xs">
              <Button size="compact-sm" variant="default" onClick={() => setOpened(false)}>
                Close
              </Button>
              <Button size="compact-sm" color="teal" type="submit" loading={busy}>
                Accept
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Reject or Cancel ticket → the reason (required) → confirm. */
export function CloseTicketButton({
  ticket,
  commands,
  onError,
  kind,
  size = 'compact-xs',
}: PopoverActionProps & { kind: 'reject' | 'cancel' }) {
  const { opened, setOpened, error, setError, busy, run } = usePopoverAction(onError);
  const [reason, setReason] = useState('');
  const verb = kind === 'reject' ? 'Reject' : 'Cancel ticket';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (reason.trim() === '') {
      setError(TICKET_MESSAGES.reasonRequired);
      return;
    }
    await run(async () => {
      await commands.close(ticket, kind, reason.trim());
      setReason('');
    });
  }

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      trapFocus
      withArrow
      position="bottom-end"
      shadow="md"
      width={300}
      withinPortal
      returnFocus
    >
      <Popover.Target>
        <Button
          size={size}
          variant="default"
          color="red"
          onClick={(event) => {
            event.stopPropagation();
            setError(undefined);
            setOpened((o) => !o);
          }}
        >
          {verb}
        </Button>
      </Popover.Target>
      <Popover.Dropdown onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()}>
        <form onSubmit={submit} aria-label={`${verb} ${ticket.number}`}>
          <Stack gap="xs">
            <Textarea
              label="Reason"
              placeholder={kind === 'reject' ? 'Why you reject these terms' : 'Why the trade is cancelled'}
              value={reason}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setError(undefined);
              }}
              onKeyDown={(event) => {
                // Enter confirms; Shift+Enter adds a line.
                if (event.key === 'Enter' && !event.shiftKey) {
                  event.preventDefault();
                  event.currentTarget.form?.requestSubmit();
                }
              }}
              error={error}
              maxLength={500}
              autosize
              minRows={2}
              data-autofocus
            />
            <Group justify="flex-end" gap="xs">
              <Button size="compact-sm" variant="default" onClick={() => setOpened(false)}>
                Close
              </Button>
              <Button size="compact-sm" color="red" type="submit" loading={busy}>
                {verb}
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Send to broker → a broker firm's user who may work the user's side (`search-brokers/{id}`) → Send. */
export function SendToBrokerButton({ ticket, commands, onError, size = 'compact-xs' }: PopoverActionProps) {
  const { user } = useSession();
  const { opened, setOpened, error, setError, busy, run } = usePopoverAction(onError);
  const [broker, setBroker] = useState<PickedParticipant | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!broker?.userId) {
      setError('Please choose a broker.');
      return;
    }
    const userId = broker.userId;
    await run(async () => {
      await commands.sendToBroker(ticket, userId, broker.label);
      setBroker(null);
    });
  }

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      trapFocus
      withArrow
      position="bottom-end"
      shadow="md"
      width={320}
      withinPortal
      returnFocus
    >
      <Popover.Target>
        <Button
          size={size}
          variant="subtle"
          onClick={(event) => {
            event.stopPropagation();
            setError(undefined);
            setOpened((o) => !o);
          }}
        >
          Send to broker
        </Button>
      </Popover.Target>
      <Popover.Dropdown onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()}>
        <form onSubmit={submit} aria-label={`Send ${ticket.number} to a broker`}>
          <Stack gap="xs">
            <Text size="xs" c="dimmed">
              The broker works your side of this ticket and can act on it for your firm.
            </Text>
            <ParticipantSelect
              inPopover
              kind="broker"
              ticketId={ticket.id}
              ownClientId={user?.client_id ?? ''}
              label="Broker"
              placeholder="Search brokers"
              size="sm"
              value={broker}
              onChange={(next) => {
                setBroker(next);
                setError(undefined);
              }}
              error={error}
              autoFocus
            />
            <Group justify="flex-end" gap="xs">
              <Button size="compact-sm" variant="default" onClick={() => setOpened(false)}>
                Close
              </Button>
              <Button size="compact-sm" type="submit" loading={busy}>
                Send
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
