import type { AppContext } from '../context';
import type { MemberView, TeamView } from './views';

/**
 * Realtime events of this module (channel names are the spec's with the `private-` prefix).
 *   private-team.{id}.users        member.saved {team_id, member} · member.removed {team_id, user_id}
 *                                  team.saved {team} · team.deleted {team_id}
 *   private-team.{id}.permissions  saved {collection: 'permission', data: record}
 * A failed publish must not undo a stored change, so errors are logged, not thrown.
 */

export const usersChannel = (teamId: number) => `private-team.${teamId}.users`;
export const permissionsChannel = (teamId: number) => `private-team.${teamId}.permissions`;

async function publish(ctx: AppContext, channel: string, event: string, data: unknown) {
  try {
    await ctx.broadcaster.publish(channel, event, data);
  } catch (error) {
    console.error(`realtime publish ${event} on ${channel} failed`, error);
  }
}

export const publishMemberSaved = (ctx: AppContext, teamId: number, member: MemberView) =>
  publish(ctx, usersChannel(teamId), 'member.saved', { team_id: teamId, member });
export const publishMemberRemoved = (ctx: AppContext, teamId: number, userId: number) =>
  publish(ctx, usersChannel(teamId), 'member.removed', { team_id: teamId, user_id: userId });
export const publishTeamSaved = (ctx: AppContext, team: TeamView) => publish(ctx, usersChannel(team.id), 'team.saved', { team });
export const publishTeamDeleted = (ctx: AppContext, teamId: number) => publish(ctx, usersChannel(teamId), 'team.deleted', { team_id: teamId });
export const publishPermissionsSaved = (ctx: AppContext, teamId: number, record: unknown) =>
  publish(ctx, permissionsChannel(teamId), 'saved', { collection: 'permission', data: record });
