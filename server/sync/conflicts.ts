import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { requireUser } from '../auth/guard';
import { notFound, parseBody, unauthorized, validation } from '../http/errors';
import { appendEvents, registerEventFloor, type EventRow } from '../events/outbox';
import type { DomainEventType } from '../events/types';
import { notificationChannel } from '../../schema/notifications';
import { CONFLICT_KEY_PATTERN, CONFLICTS_CHANGED_EVENT, type ServerConflict } from '../../schema/sync-conflicts';
import { RECORD_ID_PATTERN } from '../../schema/records';
import { collections } from '../../schema/collections';
import { teamIdParam } from './params';
import { AUTOBOT_USER_ID } from '../../schema/automations';
import { readScope } from './read-scope';
import { loadReadContext } from './reads';
import type { WireRecord } from './store';

/**
 * Each user's conflicts on the server (issue #30 parts 2 and 3, decision 0346). The sync worker
 * that recorded a conflict (a field both this user, offline, and another user changed; decision
 * 0345) reports it here; the server keeps it on the user's list and writes the activity entry
 * "X's offline change to Budget (90) was replaced by Y's (120)" (event `{prefix}.conflicted`) that
 * everyone who reads the item sees, the winner too. Every device of the user pulls the open list,
 * and a choice made on one device is sent here, so the conflict leaves all of them.
 *   POST /api/{teamId}/conflicts                 report one (idempotent by its key)
 *   GET  /api/me/conflicts                       the user's open conflicts, every workspace, and
 *                                                deleted_user_ids: winners whose account is gone
 *   POST /api/me/conflicts/{key}/resolve         {choice: 'mine' | 'theirs'}
 * Each change is told on the user's channel (ConflictsChanged), so their other devices pull now.
 */

/** The most a report may carry (its values as JSON): one field's three values, or a record's. */
export const CONFLICT_BODY_MAX_CHARS = 256 * 1024;
/** The most open conflicts one answer lists (oldest first). */
const OPEN_LIST_MAX = 500;

const PREFIX: Record<string, string> = { comment_reaction: 'reaction', folder_view: 'view' };

const reportBody = z
  .strictObject({
    key: z.string().regex(CONFLICT_KEY_PATTERN, 'must be 8 to 64 letters, digits, _ or -'),
    kind: z.enum(['field', 'record']),
    collection: z.string().refine((c) => Object.hasOwn(collections, c), 'unknown collection'),
    id: z.string().regex(RECORD_ID_PATTERN, 'must be a record id'),
    item_id: z.string().regex(RECORD_ID_PATTERN).nullable().default(null),
    attribute_id: z.string().regex(RECORD_ID_PATTERN).nullable().default(null),
    field: z.string().min(1).max(64).nullable().default(null),
    text: z.boolean().default(false),
    mine: z.unknown(),
    theirs: z.unknown(),
    base: z.unknown(),
    theirs_by: z.number().int().positive().nullable().default(null),
    theirs_at: z.iso.datetime({ offset: true }).nullable().default(null),
    theirs_row_version: z.number().int().min(0).nullable().default(null),
  })
  .refine((b) => b.kind === 'record' || b.field !== null, { message: 'a field conflict names its field', path: ['field'] });

/** `choice` is told for the record only ('mine' was saved by the device as a normal edit). */
const resolveBody = z.strictObject({ choice: z.enum(['mine', 'theirs']).optional() });

const keyParam = (key: string) => {
  if (!CONFLICT_KEY_PATTERN.test(key)) throw validation(['key: must be 8 to 64 letters, digits, _ or -']);
  return key;
};

export function conflictRoutes(app: FastifyInstance, ctx: AppContext): void {
  const tag = 'Sync';
  app.post<{ Params: { teamId: string } }>(
    '/api/:teamId/conflicts',
    { config: { docs: { tag, summary: 'Report a conflict of your offline edit', description: 'Kept on your list of conflicts (every device of yours lists it) and written to the item’s activity. The same key again changes nothing.', body: reportBody, status: 201 } } },
    async (request, reply) => {
    const teamId = teamIdParam(request.params.teamId);
    const { user, view, role } = await readScope(ctx, request, teamId);
    // Members only: someone outside the workspace keeps their conflicts on their device alone.
    if (role === 'guest') throw unauthorized();
    const body = parseBody(reportBody, request.body);
    const size = JSON.stringify([body.mine ?? null, body.theirs ?? null, body.base ?? null]).length;
    if (size > CONFLICT_BODY_MAX_CHARS) throw validation([`mine: the values may hold at most ${CONFLICT_BODY_MAX_CHARS / 1024} KB`]);
    // The record must be one the user reads now (the activity entry is read by the record's readers).
    const row = await ctx.db.selectFrom('records').select(['board_id', 'data']).where('collection', '=', body.collection).where('id', '=', body.id).where('team_id', '=', teamId).executeTakeFirst();
    const record = row?.data as WireRecord | undefined;
    if (!row || !record || !view.canRead(body.collection, record, await loadReadContext(ctx.db, teamId, body.collection, [record]))) throw notFound();
    const now = ctx.now();
    const { key, ...rest } = body;
    const added = await ctx.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('sync_conflicts')
        .values({ user_id: user!.id, key, team_id: teamId, board_id: row.board_id, body: JSON.stringify(rest), created_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (!inserted) return false;
      if (body.kind === 'field') {
        const event: EventRow = {
          team_id: teamId,
          board_id: row.board_id,
          type: `${PREFIX[body.collection] ?? body.collection}.conflicted` as DomainEventType,
          collection: body.collection,
          record_id: body.id,
          item_id: body.item_id ?? (body.collection === 'item' ? body.id : null),
          // The person whose offline change was replaced; `after.by` is whose change stayed.
          actor_id: user!.id,
          before: { field: body.field, value: body.mine ?? null },
          after: { field: body.field, value: body.theirs ?? null, by: body.theirs_by, at: body.theirs_at },
        };
        await registerEventFloor(trx);
        await appendEvents(trx, [event], now);
      }
      return true;
    });
    if (added) await ctx.broadcaster.publish(notificationChannel(user!.id), CONFLICTS_CHANGED_EVENT, { added: [key], removed: [] }).catch(() => undefined);
    reply.code(added ? 201 : 200);
    return { data: { key, added } };
  },
  );

  app.get('/api/me/conflicts', { config: { docs: { tag, summary: 'Your open conflicts', description: 'Conflicts of your edits not yet settled, in every workspace, oldest first (at most 500).' } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    const rows = await ctx.db.selectFrom('sync_conflicts').selectAll().where('user_id', '=', user.id).where('resolved_at', 'is', null).orderBy('created_at').limit(OPEN_LIST_MAX).execute();
    const data: ServerConflict[] = rows.map((r) => {
      const body = (typeof r.body === 'string' ? JSON.parse(r.body) : r.body) as Omit<ServerConflict, 'key' | 'team_id' | 'created_at'>;
      return { ...body, key: r.key, team_id: r.team_id, created_at: new Date(r.created_at).toISOString() };
    });
    // Whose winning save it was, when the server no longer finds the account: the inbox names them
    // "Deleted Account", as the activity log does (W3.3, W8.4; schema/special-users.ts).
    const byIds = [...new Set(data.map((c) => c.theirs_by).filter((id): id is number => typeof id === 'number' && id !== AUTOBOT_USER_ID))];
    const found = byIds.length ? new Set((await ctx.db.selectFrom('users').select('id').where('id', 'in', byIds).execute()).map((u) => u.id)) : new Set<number>();
    return { data, deleted_user_ids: byIds.filter((id) => !found.has(id)) };
  });

  app.post<{ Params: { key: string } }>('/api/me/conflicts/:key/resolve', { config: { docs: { tag, summary: 'Settle one of your conflicts', description: 'Takes it off your list on every device. `mine` is recorded only: your device saves your value as a normal edit.', body: resolveBody } } }, async (request) => {
    const user = await requireUser(ctx.db, request);
    const key = keyParam(request.params.key);
    const { choice } = parseBody(resolveBody, request.body ?? {});
    const found = await ctx.db.selectFrom('sync_conflicts').select(['resolved_at', 'resolution']).where('user_id', '=', user.id).where('key', '=', key).executeTakeFirst();
    // A key the server never got (or another user's) has nothing open: the answer says so, no error.
    if (!found) return { data: { key, resolution: null } };
    if (found.resolved_at) return { data: { key, resolution: found.resolution } };
    await ctx.db.updateTable('sync_conflicts').set({ resolved_at: ctx.now(), resolution: choice ?? 'resolved' }).where('user_id', '=', user.id).where('key', '=', key).where('resolved_at', 'is', null).execute();
    await ctx.broadcaster.publish(notificationChannel(user.id), CONFLICTS_CHANGED_EVENT, { added: [], removed: [key] }).catch(() => undefined);
    return { data: { key, resolution: choice ?? 'resolved' } };
  });
}
