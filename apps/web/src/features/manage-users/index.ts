/** Users of the organisation and invitations (ops admins; spec §2 /manage-users). */
export { UsersTable } from './components/users-table';
export { InviteUserForm } from './components/invite-user-form';
export { PendingInvites } from './components/pending-invites';
