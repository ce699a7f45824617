/**
 * Tickets the user changed a moment ago: their live events (which name no actor) are the echo of the
 * user's own action, so they refresh the lists but raise no toast or sound.
 */
const ECHO_MS = 5_000;
const changedAt = new Map<string, number>();
let creating = 0;
let lastCreateEndedAt = 0;

/** Call when the user acts on a ticket (before the request goes). */
export function markOwnChange(ticketId: string, now = Date.now()): void {
  for (const [id, at] of changedAt) if (now - at >= ECHO_MS) changedAt.delete(id);
  changedAt.set(ticketId, now);
}

/** Call around the user's own ticket creation (its id is unknown until the answer). */
export function beginOwnCreate(): () => void {
  creating += 1;
  return () => {
    creating -= 1;
    lastCreateEndedAt = Date.now();
  };
}

/** Whether an event on `ticketId` is most likely the echo of the user's own action. */
export function isOwnEcho(ticketId: string, action: string | undefined, now = Date.now()): boolean {
  const at = changedAt.get(ticketId);
  if (at !== undefined && now - at < ECHO_MS) return true;
  if (action === 'created' && (creating > 0 || now - lastCreateEndedAt < ECHO_MS)) return true;
  return false;
}
