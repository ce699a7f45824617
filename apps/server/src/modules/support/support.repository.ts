/**
 * SQL of the support desk: tickets, their conversation, attachments, and the Dart Support staff list. Every
 * function takes the database or a transaction, so a write and its reads share one connection.
 */
import { and, asc, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { clients, supportAttachments, supportMessages, supportStaff, supportTickets, userAccounts, users } from '../../db/schema';

export type TicketRow = typeof supportTickets.$inferSelect;
export type NewTicket = typeof supportTickets.$inferInsert;
export type MessageRow = typeof supportMessages.$inferSelect;
export type AttachmentRow = typeof supportAttachments.$inferSelect;

/** A ticket with the names its views show. */
export interface TicketListRow extends TicketRow {
  requesterName: string;
  requesterEmail: string;
  clientName: string;
  clientTier: string;
  replyCount: number;
}

export interface MessageListRow extends MessageRow {
  authorName: string;
}

/** Open work: what the staff queue shows when no status is asked for. */
export const OPEN_STATUSES = ['open', 'in_progress', 'waiting_on_customer'] as const;

const ticketColumns = {
  ticket: supportTickets,
  requesterName: sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`,
  requesterEmail: users.email,
  clientName: clients.name,
  clientTier: clients.tier,
  replyCount: sql<number>`(SELECT count(*)::int FROM ${supportMessages} m WHERE m.ticket_id = ${supportTickets.id})`,
};

const flatten = (row: {
  ticket: TicketRow;
  requesterName: string;
  requesterEmail: string;
  clientName: string;
  clientTier: string;
  replyCount: number;
}) => ({
  ...row.ticket,
  requesterName: row.requesterName,
  requesterEmail: row.requesterEmail,
  clientName: row.clientName,
  clientTier: row.clientTier,
  replyCount: Number(row.replyCount),
});

export async function isStaff(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db.select({ userId: supportStaff.userId }).from(supportStaff).where(eq(supportStaff.userId, userId));
  return Boolean(row);
}

/** The e-mail addresses of every active staff member (new tickets and requesters' replies are sent to them). */
export async function staffEmails(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(supportStaff)
    .innerJoin(users, eq(users.id, supportStaff.userId))
    .where(eq(users.isActive, true));
  return rows.map((r) => r.email);
}

export async function insertTicket(db: DbOrTx, values: NewTicket): Promise<TicketRow> {
  const [row] = await db.insert(supportTickets).values(values).returning();
  return row!;
}

export async function insertMessage(db: DbOrTx, values: typeof supportMessages.$inferInsert): Promise<MessageRow> {
  const [row] = await db.insert(supportMessages).values(values).returning();
  return row!;
}

export async function insertAttachment(db: DbOrTx, values: typeof supportAttachments.$inferInsert): Promise<AttachmentRow> {
  const [row] = await db.insert(supportAttachments).values(values).returning();
  return row!;
}

/**
 * The caller's own uploads among `ids` not yet on a ticket, locked: an attachment joins one ticket or reply
 * only, and two submits naming it cannot both take it.
 */
export async function lockUnusedAttachments(db: DbOrTx, uploaderId: string, ids: readonly string[]): Promise<AttachmentRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(supportAttachments)
    .where(
      and(inArray(supportAttachments.id, [...ids]), eq(supportAttachments.uploaderId, uploaderId), isNull(supportAttachments.ticketId)),
    )
    .for('update');
}

export async function attachToTicket(db: DbOrTx, ids: readonly string[], ticketId: string, messageId: string | null): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(supportAttachments)
    .set({ ticketId, messageId })
    .where(inArray(supportAttachments.id, [...ids]));
}

export async function ticketById(db: DbOrTx, id: string): Promise<TicketListRow | null> {
  const [row] = await db
    .select(ticketColumns)
    .from(supportTickets)
    .innerJoin(users, eq(users.id, supportTickets.userId))
    .innerJoin(clients, eq(clients.id, supportTickets.clientId))
    .where(eq(supportTickets.id, id));
  return row ? flatten(row) : null;
}

export async function lockTicket(db: DbOrTx, id: string): Promise<TicketRow | null> {
  const [row] = await db.select().from(supportTickets).where(eq(supportTickets.id, id)).for('update');
  return row ?? null;
}

export async function updateTicket(db: DbOrTx, id: string, set: Partial<NewTicket>): Promise<TicketRow> {
  const [row] = await db
    .update(supportTickets)
    .set({ ...set, version: sql`${supportTickets.version} + 1`, updatedAt: sql`now()` })
    .where(eq(supportTickets.id, id))
    .returning();
  return row!;
}

/** Marks every staff reply of the ticket read by its requester (no version bump: reading changes nothing else). */
export async function markRepliesSeen(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(supportTickets)
    .set({ requesterSeenReplies: sql`${supportTickets.staffReplies}` })
    .where(eq(supportTickets.id, id));
}

export async function listTickets(
  db: DbOrTx,
  filter: { userId?: string; clientId?: string; statuses?: readonly string[] },
  page: { offset: number; limit: number },
): Promise<{ count: number; rows: TicketListRow[] }> {
  const conditions: SQL[] = [];
  if (filter.userId) conditions.push(eq(supportTickets.userId, filter.userId));
  if (filter.clientId) conditions.push(eq(supportTickets.clientId, filter.clientId));
  if (filter.statuses) conditions.push(inArray(supportTickets.status, [...filter.statuses]));
  const where = conditions.length ? and(...conditions) : undefined;
  const [total] = await db.select({ n: count() }).from(supportTickets).where(where);
  const rows = await db
    .select(ticketColumns)
    .from(supportTickets)
    .innerJoin(users, eq(users.id, supportTickets.userId))
    .innerJoin(clients, eq(clients.id, supportTickets.clientId))
    .where(where)
    .orderBy(desc(supportTickets.updatedAt), desc(supportTickets.number))
    .offset(page.offset)
    .limit(page.limit);
  return { count: Number(total?.n ?? 0), rows: rows.map(flatten) };
}

/** The requester's unread staff replies over all their tickets, and how many tickets hold some. */
export async function unreadOf(db: DbOrTx, userId: string): Promise<{ unread: number; tickets: number }> {
  const [row] = await db
    .select({
      unread: sql<number>`coalesce(sum(${supportTickets.staffReplies} - ${supportTickets.requesterSeenReplies}), 0)::int`,
      tickets: sql<number>`count(*) FILTER (WHERE ${supportTickets.staffReplies} > ${supportTickets.requesterSeenReplies})::int`,
    })
    .from(supportTickets)
    .where(eq(supportTickets.userId, userId));
  return { unread: Number(row?.unread ?? 0), tickets: Number(row?.tickets ?? 0) };
}

export async function messagesOf(db: DbOrTx, ticketId: string): Promise<MessageListRow[]> {
  const rows = await db
    .select({ message: supportMessages, authorName: sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})` })
    .from(supportMessages)
    .innerJoin(users, eq(users.id, supportMessages.authorId))
    .where(eq(supportMessages.ticketId, ticketId))
    .orderBy(asc(supportMessages.createdAt), asc(supportMessages.id));
  return rows.map((r) => ({ ...r.message, authorName: r.authorName }));
}

export async function attachmentsOf(db: DbOrTx, ticketId: string): Promise<AttachmentRow[]> {
  return db
    .select()
    .from(supportAttachments)
    .where(eq(supportAttachments.ticketId, ticketId))
    .orderBy(asc(supportAttachments.createdAt), asc(supportAttachments.id));
}

export async function attachmentById(db: DbOrTx, id: string): Promise<AttachmentRow | null> {
  const [row] = await db.select().from(supportAttachments).where(eq(supportAttachments.id, id));
  return row ?? null;
}

export async function userEmail(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}

/** The firm's plan, its row locked for the change (an upgrade granted twice at once lands once). */
export async function lockClientTier(db: DbOrTx, clientId: string): Promise<string | null> {
  const [row] = await db.select({ tier: clients.tier }).from(clients).where(eq(clients.id, clientId)).for('update');
  return row?.tier ?? null;
}

export async function setClientTier(db: DbOrTx, clientId: string, tier: string): Promise<void> {
  await db.update(clients).set({ tier }).where(eq(clients.id, clientId));
}

/** Every user of the firm (their cached sessions must learn the new plan). */
export async function clientUserIds(db: DbOrTx, clientId: string): Promise<string[]> {
  const rows = await db.select({ userId: userAccounts.userId }).from(userAccounts).where(eq(userAccounts.clientId, clientId));
  return rows.map((r) => r.userId);
}
