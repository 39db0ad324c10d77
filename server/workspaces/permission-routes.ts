import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { UserRow } from '../auth/guard';
import { optionalUser, requireUser } from '../auth/guard';
import { ApiError, parseBody, validation } from '../http/errors';
import { Messages } from '../../schema/messages';
import { Permission, allowedPermissions, entryProblems, parseEntryKey, type PermissionEntries, type PermissionName, type RoleOrGuest } from '../../schema/permissions';
import { memberRole, parseTeamId, requireMemberAccess, requireTeam, requireTeamPermission, workspaceLevel, type TeamRow } from './access';
import { accessQuery, permissionsBody } from './validators';
import { publishPermissionsSaved } from './events';
import { recheckSubscriptions } from '../realtime/recheck';

type TeamParams = { Params: { teamId: string } };

export const OWNER_ENTRIES_FIXED = "The owner's permissions cannot be changed.";

/** The workspace's permission record (workspace.md §3 "Permission record"). */
export function workspacePermissionRecord(team: TeamRow) {
  return {
    id: `workspace-${team.id}`,
    resource_type: 'workspace' as const,
    resource_id: team.id,
    team_id: team.id,
    permissions: (team.permissions ?? {}) as PermissionEntries,
    final_permissions: [] as string[],
    row_version: team.row_version,
  };
}

/**
 * Answers "which permissions does this user hold on this resource" for one resource type.
 * The workspace type is built in; the sync module registers board and folder.
 */
export type AccessResolver = (args: {
  ctx: AppContext;
  request: FastifyRequest;
  team: TeamRow;
  user: UserRow | null;
  role: RoleOrGuest;
  resourceId: string | undefined;
}) => Promise<PermissionName[]>;

const accessResolvers = new Map<string, AccessResolver>([
  [
    'workspace',
    async ({ team, user, role, resourceId }) => {
      if (resourceId !== undefined && resourceId !== '' && resourceId !== String(team.id)) throw validation(["resource_id: must be this workspace's id"]);
      return allowedPermissions({ user: { id: user?.id ?? null, role }, chain: [workspaceLevel(team)] });
    },
  ],
]);

/** Lets another module answer /permissions/access for its resource type (e.g. 'board', 'folder'). */
export function registerAccessResolver(resourceType: string, resolver: AccessResolver): void {
  accessResolvers.set(resourceType, resolver);
}

/** GET/PUT /api/{teamId}/permissions and GET /api/{teamId}/permissions/access. */
export function permissionRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<TeamParams>('/api/:teamId/permissions', async (request) => {
    const user = await requireUser(ctx.db, request);
    const { team } = await requireMemberAccess(ctx, user, parseTeamId(request.params.teamId));
    return { data: workspacePermissionRecord(team) };
  });

  app.put<TeamParams>('/api/:teamId/permissions', async (request) => {
    const user = await requireUser(ctx.db, request);
    const teamId = parseTeamId(request.params.teamId);
    await requireTeamPermission(ctx, user, teamId, Permission.MANAGE_PERMISSIONS);
    const body = parseBody(permissionsBody, request.body);
    const problems = entryProblems(body.permissions);
    for (const key of Object.keys(body.permissions)) {
      const parsed = parseEntryKey(key);
      if (parsed?.tokenType === 'role' && parsed.tokenValue === 'owner') problems.push(`${key}: ${OWNER_ENTRIES_FIXED}`);
    }
    if (problems.length > 0) throw validation(problems);
    const entries = body.permissions as PermissionEntries;

    const saved = await ctx.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('teams').selectAll().where('id', '=', teamId).forUpdate().executeTakeFirstOrThrow();
      // Optimistic concurrency like every synced record: the body's row_version must be stored + 1.
      if (body.row_version !== undefined && body.row_version !== current.row_version + 1) {
        throw new ApiError(409, Messages.conflict, 'conflict', workspacePermissionRecord(current));
      }
      return trx
        .updateTable('teams')
        .set({ permissions: JSON.stringify(entries), row_version: current.row_version + 1, updated_at: ctx.now() })
        .where('id', '=', teamId)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    const record = workspacePermissionRecord(saved);
    await publishPermissionsSaved(ctx, teamId, record);
    // Workspace entries decide who sees which board: subscriptions of the workspace now refused end.
    await recheckSubscriptions(ctx, { teamId });
    return { data: record };
  });

  /** The caller's allowed permission names on a resource; anonymous visitors ask as guests. */
  app.get<TeamParams>('/api/:teamId/permissions/access', async (request) => {
    const user = await optionalUser(ctx.db, request);
    const team = await requireTeam(ctx, parseTeamId(request.params.teamId));
    const query = parseBody(accessQuery, request.query);
    const resolver = accessResolvers.get(query.resource_type);
    if (!resolver) throw new ApiError(422, Messages.noPermissionFor(query.resource_type), 'validation', [`resource_type: ${Messages.noPermissionFor(query.resource_type)}`]);
    const role = await memberRole(ctx, user?.id ?? null, team.id, team);
    const permissions = await resolver({ ctx, request, team, user, role, resourceId: query.resource_id });
    return { data: { resource_type: query.resource_type, resource_id: query.resource_id ?? String(team.id), role, permissions } };
  });
}
