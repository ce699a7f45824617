/**
 * The invitation and membership calls: accept, decline, leave (POST api/chat/channels/{url}/…/),
 * invite (POST api/chatter/invite-users), operators (POST …/operators/) and ban (POST …/ban/).
 * They share one shape (channel in, channel or nothing out), so they share this file.
 */
import type { Channel } from '@dart/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/api-client';
import { removeChannel, upsertChannel } from '../utils/chat-cache';
import { CHAT_PATHS } from './chat-paths';

/** An answer may be the updated channel, or nothing when I am out of it. */
const asChannel = (value: unknown): Channel | null =>
  value && typeof value === 'object' && 'url' in value && 'members' in value ? (value as Channel) : null;

export const acceptInvitation = (url: string) => http.post<unknown>(CHAT_PATHS.accept(url), {});
export const declineInvitation = (url: string) => http.post<unknown>(CHAT_PATHS.decline(url), {});
export const leaveChannel = (url: string) => http.post<unknown>(CHAT_PATHS.leave(url), {});
export const inviteUsers = (url: string, userIds: string[]) =>
  http.post<unknown>(CHAT_PATHS.inviteUsers, { channel_url: url, sendbird_user_ids: userIds });
export const updateOperators = (url: string, change: { add?: string[]; remove?: string[] }) =>
  http.post<unknown>(CHAT_PATHS.operators(url), { add: change.add ?? [], remove: change.remove ?? [] });
export const banMember = (url: string, userId: string) => http.post<unknown>(CHAT_PATHS.ban(url), { user_id: userId });

export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptInvitation,
    onSuccess: (answer) => {
      const channel = asChannel(answer);
      if (channel) upsertChannel(queryClient, channel);
    },
  });
}

/** Declining or leaving takes the channel out of my list at once. */
export function useDeclineInvitation() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: declineInvitation, onSuccess: (_answer, url) => removeChannel(queryClient, url) });
}

export function useLeaveChannel() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: leaveChannel, onSuccess: (_answer, url) => removeChannel(queryClient, url) });
}

export function useInviteUsers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ url, userIds }: { url: string; userIds: string[] }) => inviteUsers(url, userIds),
    onSuccess: (answer) => {
      const channel = asChannel(answer);
      if (channel) upsertChannel(queryClient, channel);
    },
  });
}

export function useUpdateOperators() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ url, add, remove }: { url: string; add?: string[]; remove?: string[] }) =>
      updateOperators(url, { ...(add ? { add } : {}), ...(remove ? { remove } : {}) }),
    onSuccess: (answer) => {
      const channel = asChannel(answer);
      if (channel) upsertChannel(queryClient, channel);
    },
  });
}

export function useBanMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ url, userId }: { url: string; userId: string }) => banMember(url, userId),
    onSuccess: (answer) => {
      const channel = asChannel(answer);
      if (channel) upsertChannel(queryClient, channel);
    },
  });
}
