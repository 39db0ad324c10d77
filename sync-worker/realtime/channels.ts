import { boardChannel, timeTrackingChannel } from '../../schema/collections';

/** The private channels the worker subscribes to (DESIGN.md §5, shell.md §7, workspace.md §7). */
export const channelNames = {
  teamUsers: (teamId: number) => `private-team.${teamId}.users`,
  teamPermissions: (teamId: number) => `private-team.${teamId}.permissions`,
  user: (userId: number) => `private-App.User.${userId}`,
  board: (teamId: number, boardId: string) => boardChannel(teamId, boardId),
  timeTracking: (teamId: number, boardId: string) => timeTrackingChannel(teamId, boardId),
};

/** What a channel is about, read back from its name. */
export type ChannelScope =
  | { scope: 'board'; teamId: number; boardId: string }
  | { scope: 'team.users'; teamId: number }
  | { scope: 'team.permissions'; teamId: number }
  | { scope: 'user'; userId: number }
  | { scope: 'timeTracking'; teamId: number; boardId: string };

export function scopeOf(channel: string): ChannelScope | null {
  let m = /^private-team\.(\d+)\.board\.(.+)$/.exec(channel);
  if (m) return { scope: 'board', teamId: Number(m[1]), boardId: m[2]! };
  m = /^private-team\.(\d+)\.(users|permissions)$/.exec(channel);
  if (m) return { scope: m[2] === 'users' ? 'team.users' : 'team.permissions', teamId: Number(m[1]) };
  m = /^private-App\.User\.(\d+)$/.exec(channel);
  if (m) return { scope: 'user', userId: Number(m[1]) };
  m = /^private-user\.(\d+)\.(.+)\.timeTracking$/.exec(channel);
  if (m) return { scope: 'timeTracking', teamId: Number(m[1]), boardId: m[2]! };
  return null;
}
