import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { optionalUser, requireUser } from '../auth/guard';
import { parseBody } from '../http/errors';
import { requireRecentAuth } from '../auth/reauth';
import { readImageUpload } from '../files/upload';
import { deleteUpload, saveUpload } from '../files/storage';
import { Permission, type RoleOrGuest } from '../../schema/permissions';
import { parseTeamId, requireMemberAccess, requireOwner, requireTeamPermission, type TeamRow } from './access';
import { teamView, verifiedMemberCount, type TeamView } from './views';
import { ownedSubscriptions, subscriptionForNewWorkspace, subscriptionView } from './subscriptions';
import { effectiveLimits } from '../billing/limits';
import { readOnlyReason } from '../billing/read-only';
import { createTeamBody, updateTeamBody } from './validators';
import { publishTeamDeleted, publishTeamSaved } from './events';
import { endSubscriptions } from '../realtime/subscriptions';

type IdParams = { Params: { id: string } };

async function viewOf(ctx: AppContext, team: TeamRow, role: RoleOrGuest): Promise<TeamView> {
  // read_only: why writes are refused now (an ended subscription, decision 0360), or null.
  return { ...teamView(team, role, await verifiedMemberCount(ctx.db, team.id)), read_only: await readOnlyReason(ctx, ctx.db, team.id, ctx.now()) };
}

/** Broadcast copy: user_role differs per reader, so it is left out (readers know their role). */
function broadcastTeam(ctx: AppContext, view: TeamView) {
  const { user_role: _role, ...team } = view;
  return publishTeamSaved(ctx, team as TeamView);
}

/** Workspaces themselves: read, create, update, delete, photo; the user's list and subscriptions. */
export function teamRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<IdParams>('/api/teams/:id', async (request) => {
    const user = await requireUser(ctx.db, request);
    const { team, role } = await requireMemberAccess(ctx, user, parseTeamId(request.params.id));
    return { data: await viewOf(ctx, team, role) };
  });

  app.post('/api/teams', async (request, reply) => {
    const user = await requireUser(ctx.db, request);
    const body = parseBody(createTeamBody, request.body);
    const now = ctx.now();
    const team = await ctx.db.transaction().execute(async (trx) => {
      // The effective limit: the top plan's with BILLING=off (decision 0240).
      const subscription = await subscriptionForNewWorkspace(trx, user.id, now, body.subscription_id, async (sub) => (await effectiveLimits(ctx, trx, sub, now)).workspaces);
      const created = await trx
        .insertInto('teams')
        .values({ name: body.name, owner_id: user.id, subscription_id: subscription.id, photo_url: null, use_custom_logo: false, whitelabel_settings: null, domain: null, permissions: JSON.stringify({}), row_version: 1, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx.insertInto('team_members').values({ team_id: created.id, user_id: user.id, role: 'owner', verified_at: now, invited_by: null, created_at: now }).execute();
      return created;
    });
    return reply.status(201).send({ data: await viewOf(ctx, team, 'owner') });
  });

  app.put<IdParams>('/api/teams/:id', async (request) => {
    const user = await requireUser(ctx.db, request);
    const teamId = parseTeamId(request.params.id);
    const { role } = await requireTeamPermission(ctx, user, teamId, Permission.EDIT_WORKSPACE_SETTINGS);
    const body = parseBody(updateTeamBody, request.body);
    const team = await ctx.db
      .updateTable('teams')
      .set((eb) => ({
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.use_custom_logo !== undefined ? { use_custom_logo: body.use_custom_logo } : {}),
        ...(body.domain !== undefined ? { domain: body.domain === null ? null : body.domain.toLowerCase() } : {}),
        row_version: eb('row_version', '+', 1),
        updated_at: ctx.now(),
      }))
      .where('id', '=', teamId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const view = await viewOf(ctx, team, role);
    await broadcastTeam(ctx, view);
    return { data: view };
  });

  app.delete<IdParams>('/api/teams/:id', async (request) => {
    const user = await requireUser(ctx.db, request);
    const teamId = parseTeamId(request.params.id);
    const { team } = await requireMemberAccess(ctx, user, teamId);
    requireOwner(team, user);
    requireRecentAuth(ctx, request, user);
    // Boards, records, members and invitations go with the team (foreign keys cascade).
    await ctx.db.deleteFrom('teams').where('id', '=', teamId).execute();
    await deleteUpload(ctx, team.photo_url).catch(() => undefined);
    await publishTeamDeleted(ctx, teamId);
    endSubscriptions(ctx.db, { teamId });
    return { data: { id: teamId } };
  });

  /** Sets (or clears) a workspace's photo, removes the old file and tells the members. */
  const replacePhoto = async (team: { id: number; photo_url: string | null }, role: Parameters<typeof viewOf>[2], url: string | null) => {
    const updated = await ctx.db
      .updateTable('teams')
      .set((eb) => ({ photo_url: url, row_version: eb('row_version', '+', 1), updated_at: ctx.now() }))
      .where('id', '=', team.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await deleteUpload(ctx, team.photo_url).catch(() => undefined);
    const view = await viewOf(ctx, updated, role);
    await broadcastTeam(ctx, view);
    return view;
  };

  app.post<IdParams>('/api/teams/:id/photo', async (request) => {
    const user = await requireUser(ctx.db, request);
    const teamId = parseTeamId(request.params.id);
    const { team, role } = await requireTeamPermission(ctx, user, teamId, Permission.EDIT_WORKSPACE_SETTINGS);
    const image = await readImageUpload(request, 'photo');
    const url = await saveUpload(ctx, 'team-photos', image.data, image.ext, { teamId });
    return { data: await replacePhoto(team, role, url) };
  });

  app.delete<IdParams>('/api/teams/:id/photo', async (request) => {
    const user = await requireUser(ctx.db, request);
    const teamId = parseTeamId(request.params.id);
    const { team, role } = await requireTeamPermission(ctx, user, teamId, Permission.EDIT_WORKSPACE_SETTINGS);
    return { data: await replacePhoto(team, role, null) };
  });

  /** The workspaces the user is a verified member of (pending invitations are not listed). */
  app.get('/api/me/workspaces', async (request) => {
    const user = await requireUser(ctx.db, request);
    const rows = await ctx.db
      .selectFrom('teams')
      .innerJoin('team_members', 'team_members.team_id', 'teams.id')
      .selectAll('teams')
      .select('team_members.role as member_role')
      .where('team_members.user_id', '=', user.id)
      .where('team_members.verified_at', 'is not', null)
      .orderBy('teams.id')
      .execute();
    const data = await Promise.all(
      rows.map(({ member_role, ...team }) => viewOf(ctx, team as TeamRow, team.owner_id === user.id ? 'owner' : member_role)),
    );
    return { data };
  });

  /** The signed-in user's subscriptions; anonymous visitors (guests) get an empty list. */
  app.get('/api/subscription', async (request) => {
    const user = await optionalUser(ctx.db, request);
    if (!user) return { data: [] };
    const now = ctx.now();
    const subs = await ownedSubscriptions(ctx.db, user.id, now);
    // Limits are the effective ones (decision 0260): BILLING=off, an ended subscription, add-ons.
    return { data: await Promise.all(subs.map(async (s) => ({ ...(await subscriptionView(ctx.db, s, now)), limits: await effectiveLimits(ctx, ctx.db, s, now) }))) };
  });
}
