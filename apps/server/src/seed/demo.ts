/**
 * Demo data (issue 2 §8): only on the embedded default or with DEMO_SEED=1. Idempotent: clients
 * are matched by name and users by e-mail, so a second start changes nothing.
 */
import { randomBytes } from 'node:crypto';
import { PERMISSIONS, type ClientTier, type ClientType, type Permission, type Role } from '@dart/contracts';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { chatStaff, clients, supportStaff, userAccountPermissions, userAccountRoles, userAccounts, users } from '../db/schema';
import { writeAudit } from '../lib/audit';
import { hashPassword } from '../lib/crypto';
import { storeCredentials } from '../modules/credentials';

export const DEMO_PASSWORD = 'Demo@12345';

interface DemoClient {
  name: string;
  clientType: ClientType;
  tier: ClientTier;
  isBroker?: boolean;
  exchanges: Array<'NSE' | 'BSE'>;
  pan: string;
  users: Array<{
    email: string;
    firstName: string;
    lastName: string;
    mobile: string;
    roles: Role[];
    permissions: readonly Permission[];
    /** Platform staff (`chat_staff`): shown in chat under the product name (spec §6). */
    chatStaff?: boolean;
    /** Dart Support (`support_staff`): works the support desk's queue (modules/support). */
    supportStaff?: boolean;
  }>;
}

const ALL = PERMISSIONS;
const READ: Permission[] = ['finstruments.has_security_data_access', 'client.view_client'];

export const DEMO_CLIENTS: DemoClient[] = [
  {
    name: 'Demo Capital',
    clientType: 'CORP',
    tier: 'PREMIUM',
    exchanges: ['NSE', 'BSE'],
    pan: 'AABCD1234E',
    users: [
      { email: 'dealer@demo.dart', firstName: 'Arjun', lastName: 'Mehta', mobile: '9876500001', roles: ['clientdealer'], permissions: ALL },
      {
        email: 'viewer@demo.dart',
        firstName: 'Priya',
        lastName: 'Nair',
        mobile: '9876500002',
        roles: ['clientviewer'],
        permissions: [...READ, 'inventory.has_inventory_access'],
      },
      {
        email: 'opsadmin@demo.dart',
        firstName: 'Kavita',
        lastName: 'Rao',
        mobile: '9876500003',
        roles: ['clientopsadmin'],
        permissions: READ,
      },
      {
        email: 'compliance@demo.dart',
        firstName: 'Vikram',
        lastName: 'Iyer',
        mobile: '9876500004',
        roles: ['complianceofficer', 'user'],
        permissions: READ,
      },
      {
        email: 'backoffice@demo.dart',
        firstName: 'Sanjay',
        lastName: 'Gupta',
        mobile: '9876500005',
        roles: ['backoffice'],
        permissions: [...READ, 'inventory.has_inventory_access'],
      },
    ],
  },
  {
    name: 'Second Bank',
    clientType: 'CORP',
    tier: 'PREMIUM',
    exchanges: ['NSE', 'BSE'],
    pan: 'AABCS5678F',
    users: [
      {
        email: 'dealer@second.dart',
        firstName: 'Neha',
        lastName: 'Kulkarni',
        mobile: '9876500006',
        roles: ['clientdealer'],
        permissions: ALL,
      },
    ],
  },
  {
    name: 'Small Treasury',
    clientType: 'CORP',
    tier: 'BASIC',
    exchanges: ['NSE', 'BSE'],
    pan: 'AABCT9012G',
    users: [
      { email: 'basic@small.dart', firstName: 'Rahul', lastName: 'Desai', mobile: '9876500007', roles: ['clientdealer'], permissions: ALL },
    ],
  },
  {
    name: 'Demo Brokers',
    clientType: 'CORP',
    tier: 'PREMIUM',
    isBroker: true,
    exchanges: ['NSE', 'BSE'],
    pan: 'AABCB3456H',
    users: [
      {
        email: 'broker@brokers.dart',
        firstName: 'Farhan',
        lastName: 'Shaikh',
        mobile: '9876500008',
        roles: ['clientdealer'],
        permissions: ALL,
      },
    ],
  },
  {
    // The platform's own firm: its support desk chats with clients as chat staff.
    name: 'Dart',
    clientType: 'CORP',
    tier: 'PREMIUM',
    exchanges: ['NSE', 'BSE'],
    pan: 'AABCD4321K',
    users: [
      {
        email: 'support@dart.in',
        firstName: 'Dart',
        lastName: 'Support',
        mobile: '9876500009',
        roles: ['user'],
        permissions: READ,
        chatStaff: true,
        supportStaff: true,
      },
    ],
  },
];

/**
 * Demo firms that hold NSCCL and ICCL credentials, so their dealers can raise exchange RFQs at once (issue 14):
 * every trading demo firm. Their passwords are random (nothing signs in with them: the SimulatedExchange needs
 * no login) and are sealed like any other; an ops admin's own credentials are never overwritten.
 */
const DEMO_FIRMS_WITH_CREDENTIALS = new Set(['Demo Capital', 'Second Bank', 'Small Treasury', 'Demo Brokers']);

export async function seedDemoData(
  database: Database,
  options: { announce: boolean; productName: string; credentialsKey: Buffer },
): Promise<number> {
  const db = database.db;
  let created = 0;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const demo of DEMO_CLIENTS) {
    await db.transaction(async (tx) => {
      let [client] = await tx.select().from(clients).where(eq(clients.name, demo.name));
      if (!client) {
        [client] = await tx
          .insert(clients)
          .values({
            name: demo.name,
            clientType: demo.clientType,
            tier: demo.tier,
            isBroker: demo.isBroker ?? false,
            pan: demo.pan,
            allowedExchanges: demo.exchanges,
            allowedReportingExchanges: demo.exchanges,
            rfqExchanges: demo.exchanges,
          })
          .returning();
        await writeAudit(
          tx,
          { actorEmail: 'seed' },
          { action: 'client.created', entity: 'client', entityId: client!.id, after: { name: demo.name, seed: true } },
        );
      }
      if (DEMO_FIRMS_WITH_CREDENTIALS.has(demo.name)) {
        for (const corp of ['NSCCL', 'ICCL'] as const) {
          if ((corp === 'NSCCL' ? client!.nscclCredentialsRef : client!.icclCredentialsRef) !== null) continue;
          await storeCredentials(
            tx,
            options.credentialsKey,
            new Date(),
            {
              clientId: client!.id,
              corp,
              participantCode: `DEMO-${corp}-${demo.pan.slice(0, 5)}`,
              username: `${demo.name.toLowerCase().replace(/[^a-z]+/g, '.')}.${corp.toLowerCase()}`,
              password: randomBytes(24).toString('base64url'),
              setByUserId: null,
              setByName: 'Demo seed',
            },
            { actorEmail: 'seed', actorClientId: client!.id },
          );
        }
      }
      for (const person of demo.users) {
        const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, person.email));
        // A data folder seeded before the support desk existed gets its staff member too.
        if (existing && person.supportStaff) await tx.insert(supportStaff).values({ userId: existing.id }).onConflictDoNothing();
        if (existing) continue;
        const [user] = await tx
          .insert(users)
          .values({
            uniqueId: `DEMO${String(created + 1).padStart(4, '0')}${demo.pan.slice(3, 5)}`,
            email: person.email,
            mobile: person.mobile,
            firstName: person.firstName,
            lastName: person.lastName,
            passwordHash,
            // Chat terms accepted by every demo user but basic@small.dart, so the terms gate can be tried.
            hasAcceptedChatTerms: person.email !== 'basic@small.dart',
          })
          .returning();
        const [account] = await tx.insert(userAccounts).values({ userId: user!.id, clientId: client!.id }).returning();
        await tx.insert(userAccountRoles).values(person.roles.map((role) => ({ userAccountId: account!.id, role })));
        await tx
          .insert(userAccountPermissions)
          .values(person.permissions.map((permission) => ({ userAccountId: account!.id, permission })));
        if (person.chatStaff) await tx.insert(chatStaff).values({ userId: user!.id }).onConflictDoNothing();
        if (person.supportStaff) await tx.insert(supportStaff).values({ userId: user!.id }).onConflictDoNothing();
        await writeAudit(
          tx,
          { actorEmail: 'seed', actorClientId: client!.id },
          { action: 'user.created', entity: 'user', entityId: user!.id, after: { email: person.email, roles: person.roles, seed: true } },
        );
        created++;
      }
    });
  }
  if (options.announce) {
    const lines = DEMO_CLIENTS.flatMap((c) =>
      c.users.map((u) => `  ${u.email.padEnd(24)} ${u.roles.join(', ').padEnd(28)} ${c.name} (${c.tier})`),
    );
    process.stdout.write(`\n${options.productName} demo sign-ins (password ${DEMO_PASSWORD}):\n${lines.join('\n')}\n\n`);
  }
  return created;
}
