import type { FastifyInstance } from 'fastify';
import { sql, type Transaction } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../context';
import type { Database } from '../db/types';
import { requireUser } from '../auth/guard';
import { ApiError, notFound, parseBody, unauthorized, validation } from '../http/errors';
import { allowed } from '../sync/access';
import { startedWith, tokenAbilitiesOf, writeAs, type Actor } from '../sync/actor';
import type { LockMode, WriteScope } from '../sync/scope';
import { teamIdParam } from '../sync/params';
import { readScope } from '../sync/read-scope';
import { ReadView } from '../sync/reads';
import { Permission } from '../../schema/permission-names';
import { BoardJobMessages, MOVE_TARGET_MAX_ITEMS } from '../../schema/board-jobs';
import { boardChannel, BOARD_EVENTS } from '../../schema/collections';
import { registerBoardJobKind, startBoardJob, type BoardJobKind, type BoardJobRun } from './runner';
import { toWire } from './store';
import { notify, userName } from '../notifications/notify';
import type { WireRecord } from '../sync/store';

/**
 * Moving a board to another workspace as a board job (kind `board.move`, decision 0227).
 * The board's records change workspace in batches (`records.team_id`), each batch with a
 * `deleted` change in the old workspace's log and a `saved` one in the new workspace's, so every
 * replica of either follows; the board's own folder moves last, so the board leaves one list and
 * appears in the other when everything else is there. Then people who are not members of the new
 * workspace are taken out of the board's folder member lists and its members values (a list left
 * empty keeps the new owner: private stays private), and the source workspace's owner is told.
 * Only a board whose every record the mover may read can move, unless the mover owns the
 * workspace (N3). The mover is judged by the route and again by every step, through writeAs with
 * their rights of now (judgeMove, docs/permissions.md "Background work"). A failure or
 * a cancel moves every record back (the move is its own undo), so no half board is left anywhere.
 *   POST /api/{teamId}/boards/{boardId}/move  {team_id}  → 202 {data: job}
 * Needs DELETE_BOARD on the board (it leaves its workspace) and CREATE_BOARD in the target.
 */

export const MOVE_KIND = 'board.move';
/** Records per transaction, and the item limit (tests lower both). */
export const moveTuning = { recordsPerBatch: 5000, maxItems: MOVE_TARGET_MAX_ITEMS };

export const moveBoardBody = z.strictObject({ team_id: z.number().int().positive() });

interface MoveInput {
  title: string;
  from_team_id: number;
  to_team_id: number;
  /** The abilities of the API token the move was started with (sync/actor.ts), absent for a session. */
  token_abilities?: string[];
}

interface MoveState {
  prepared?: boolean;
  moved?: number;
  items?: number;
  fixed?: boolean;
}

/**
 * Judges the mover for the move, through the one write path of work outside a request
 * (sync/actor.ts writeAs): their roles in both workspaces read now, in this transaction, with the
 * abilities of the token that started the job. Asked by the route and again by every step of the
 * job, so rights lost while the move runs stop it at its next batch (and the cleanup moves every
 * record back). While the board's own folder is still in the source (it moves last), the mover
 * needs DELETE_BOARD on it and, unless they own the source workspace, to read all of it (N3);
 * always CREATE_BOARD in the target and, through a token, its `admin` ability (N8). `lock` holds
 * both workspaces' team locks, the lower id first, for a step that writes.
 */
async function judgeMove(trx: Transaction<Database>, actor: Actor, input: Pick<MoveInput, 'from_team_id' | 'to_team_id'>, boardId: string, now: Date, lock?: LockMode): Promise<{ from: WriteScope; to: WriteScope }> {
  if (input.from_team_id === input.to_team_id) throw validation([BoardJobMessages.sameWorkspace]);
  const from = await writeAs(trx, input.from_team_id, actor, now);
  const to = await writeAs(trx, input.to_team_id, actor, now);
  if (!from || !to || from.role === 'guest' || to.role === 'guest') throw unauthorized();
  if (lock) for (const side of [from, to].sort((a, b) => a.team.id - b.team.id)) await side.scope.lock(lock);
  // A move takes the board from everyone in its workspace and rewrites its member lists (N8).
  from.scope.requireTokenAbility('admin', 'team_id');
  to.scope.require(Permission.CREATE_BOARD, to.scope.workspaceChain());
  const root = await trx.selectFrom('records').select('created_by').where('collection', '=', 'folder').where('id', '=', boardId).where('team_id', '=', from.team.id).executeTakeFirst();
  if (root) {
    const view = await ReadView.open(trx, from.team, { id: actor.userId, role: from.role });
    const chain = view.chain(boardId);
    if (!chain) throw unauthorized();
    // DELETE_BOARD is "own" for members by default: asked with the board's creator.
    from.scope.require(Permission.DELETE_BOARD, chain, root.created_by);
    // Everything of the board changes workspace: only what the mover may read may leave with them (N3).
    if (from.team.owner_id !== actor.userId && (await holdsUnreadable(trx, view, from.team.id, boardId))) throw new ApiError(403, BoardJobMessages.moveHoldsHidden, 'forbidden');
  }
  return { from: from.scope, to: to.scope };
}

/** The mover of a job: its starter, with the abilities of the token it was started with (if any). */
const moverOf = (run: BoardJobRun): Actor => ({ userId: run.job.user_id, tokenAbilities: tokenAbilitiesOf(run.job.input) });

/**
 * Whether the board holds records the viewer may not read (THE read rule, sync/reads.ts): a folder
 * hidden from them (and so its items and their children), someone else's personal view, someone
 * else's private time entries. With every folder visible, items and their children are readable.
 */
async function holdsUnreadable(db: Transaction<Database>, view: ReadView, teamId: number, boardId: string): Promise<boolean> {
  if (view.hasHiddenFolders(boardId)) return true;
  for (const collection of ['folder_view', 'time_entry', 'automation']) {
    const rows = await db.selectFrom('records').select(['data', 'created_by']).where('team_id', '=', teamId).where('board_id', '=', boardId).where('collection', '=', collection).execute();
    const records = rows.map((r) => ({ ...(r.data as WireRecord), created_by: r.created_by }) as WireRecord);
    if ((await view.filter(db, collection, records)).length !== records.length) return true;
  }
  return false;
}

async function itemCount(db: AppContext['db'] | Transaction<Database>, teamId: number, boardId: string): Promise<number> {
  const row = await db.selectFrom('records').select((eb) => eb.fn.countAll<string>().as('n')).where('team_id', '=', teamId).where('board_id', '=', boardId).where('collection', '=', 'item').executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The item limit of the target (the spec's "a folder chosen for a move may not hold more than a limit of items"). */
async function checkLimit(db: AppContext['db'] | Transaction<Database>, toTeam: number, boardId: string, fromTeam: number): Promise<number> {
  const items = await itemCount(db, fromTeam, boardId);
  if (items > moveTuning.maxItems) throw validation([BoardJobMessages.moveTargetFull(moveTuning.maxItems)]);
  return items;
}

/** Moves up to `limit` records of the board from one workspace to the other, the board's own folder last; answers how many and how many items. */
async function moveBatch(trx: Transaction<Database>, boardId: string, from: number, to: number, now: Date, limit: number): Promise<{ records: number; items: number }> {
  const { rows } = await sql<{ records: string; items: string }>`
    with batch as (
      select collection, id from records
      where team_id = ${from} and board_id = ${boardId}
      order by (collection = 'folder' and id = ${boardId}), (collection = 'folder'), collection, id
      limit ${limit}
    ), moved as (
      update records r set team_id = ${to},
        data = case when r.data ? 'team_id' then jsonb_set(r.data, '{team_id}', to_jsonb(${to}::int)) else r.data end
      from batch b
      where r.collection = b.collection and r.id = b.id
      returning r.collection, r.id, r.board_id
    ), left_log as (
      insert into change_log (team_id, board_id, collection, record_id, op, at)
      select ${from}, board_id, collection, id, 'deleted', ${now} from moved
      returning 1
    ), arrived_log as (
      insert into change_log (team_id, board_id, collection, record_id, op, at)
      select ${to}, board_id, collection, id, 'saved', ${now} from moved
      returning 1
    )
    select (select count(*) from moved) as records,
           (select count(*) from moved where collection = 'item') as items,
           (select count(*) from left_log) + (select count(*) from arrived_log) as logged`.execute(trx);
  return { records: Number(rows[0]?.records ?? 0), items: Number(rows[0]?.items ?? 0) };
}

/**
 * People who are not members of the new workspace leave the board's member lists and members
 * values. A member list left empty would mean "not restricted" (everyone): a restricted board or
 * folder whose people all left keeps the new workspace's owner alone, so it stays private (N3).
 */
async function fixPeople(scope: WriteScope, boardId: string): Promise<void> {
  const { trx, now } = scope;
  const to = scope.team.id;
  const members = new Set((await trx.selectFrom('team_members').select('user_id').where('team_id', '=', to).execute()).map((m) => m.user_id));
  const owner = (await trx.selectFrom('teams').select('owner_id').where('id', '=', to).executeTakeFirstOrThrow()).owner_id;
  const rows = await trx.selectFrom('records').select(['collection', 'id', 'data', 'row_version']).where('team_id', '=', to).where('board_id', '=', boardId).where('collection', 'in', ['folder', 'attribute']).execute();
  const memberAttributes = rows.filter((r) => r.collection === 'attribute' && (r.data as { kind?: string }).kind === 'members').map((r) => r.id);
  const changed: { collection: string; id: string; data: Record<string, unknown>; row_version: number }[] = [];
  for (const folder of rows.filter((r) => r.collection === 'folder')) {
    const data = folder.data as Record<string, unknown>;
    const ids = Array.isArray(data.user_ids) ? (data.user_ids as number[]) : [];
    let kept = ids.filter((id) => members.has(id));
    if (ids.length > 0 && kept.length === 0) kept = [owner]; // "owner only", never "everyone"
    if (kept.length !== ids.length || kept.some((id, i) => id !== ids[i])) changed.push({ collection: 'folder', id: folder.id, data: { ...data, user_ids: kept }, row_version: folder.row_version });
  }
  if (memberAttributes.length) {
    const values = await trx
      .selectFrom('records')
      .select(['collection', 'id', 'data', 'row_version'])
      .where('team_id', '=', to)
      .where('board_id', '=', boardId)
      .where('collection', '=', 'value')
      .where(sql<boolean>`data->>'attribute_id' in (${sql.join(memberAttributes)})`)
      .execute();
    for (const v of values) {
      const data = v.data as Record<string, unknown>;
      const ids = Array.isArray(data.value) ? (data.value as number[]) : [];
      const kept = ids.filter((id) => members.has(id));
      if (kept.length !== ids.length) changed.push({ collection: 'value', id: v.id, data: { ...data, value: kept }, row_version: v.row_version });
    }
  }
  for (const c of changed) {
    const version = c.row_version + 1;
    await trx
      .updateTable('records')
      // Stamped with the mover, who changed it last (decision 0346).
      .set({ data: JSON.stringify({ ...c.data, row_version: version, updated_at: now.toISOString(), updated_by: scope.userId }) as never, row_version: version, updated_at: now })
      .where('collection', '=', c.collection)
      .where('id', '=', c.id)
      .execute();
    await trx.insertInto('change_log').values({ team_id: to, board_id: boardId, collection: c.collection, record_id: c.id, op: 'saved', at: now }).execute();
  }
}

/**
 * The source workspace's owner is told that a board left it (unless they moved it themselves). The
 * notice names no board id: the board is no longer theirs to open, and a notice pointing at a
 * board is shown only to its readers; the name is what they knew it by.
 */
async function tellSourceOwner(trx: Transaction<Database>, ctx: AppContext, jobId: string, moverId: number, input: MoveInput): Promise<void> {
  const source = await trx.selectFrom('teams').select('owner_id').where('id', '=', input.from_team_id).executeTakeFirst();
  if (!source || source.owner_id === moverId) return;
  const jobs = Object.create(ctx.jobs, { enqueue: { value: (name: string, payload: unknown, opts: object = {}) => ctx.jobs.enqueue(name, payload, { db: trx, ...opts }) } });
  await notify({ db: trx, jobs, now: () => ctx.now() }, [
    { user_id: source.owner_id, notification_type: 'board_moved', dedupe_key: `board-move:${jobId}:board_moved`, team_id: input.from_team_id, board_name: input.title, actor_id: moverId, created_by_name: await userName(trx, moverId) },
  ]);
}

const inputOf = (run: BoardJobRun) => run.job.input as unknown as MoveInput;

export const moveKind: BoardJobKind = {
  kind: MOVE_KIND,
  async step(run) {
    const { ctx, job } = run;
    const input = inputOf(run);
    const state = (job.state_data ?? {}) as MoveState;
    if (!state.prepared) {
      await run.commit(async (trx, report) => {
        await judgeMove(trx, moverOf(run), input, job.board_id, ctx.now());
        const items = await checkLimit(trx, input.to_team_id, job.board_id, input.from_team_id);
        report({ phase: 'writing', done: 0, total: items, stateData: { prepared: true, moved: 0, items: 0 } satisfies MoveState });
      });
      return 'more';
    }
    if (!state.fixed) {
      const batch = await run.commit(async (trx, report) => {
        // Each batch is judged with the mover's rights of now (a right lost midway stops the move).
        const { to } = await judgeMove(trx, moverOf(run), input, job.board_id, ctx.now(), 'shared');
        const moved = await moveBatch(trx, job.board_id, input.from_team_id, input.to_team_id, ctx.now(), moveTuning.recordsPerBatch);
        const items = (state.items ?? 0) + moved.items;
        if (moved.records === 0) {
          await fixPeople(to, job.board_id);
          await tellSourceOwner(trx, ctx, job.id, job.user_id, input);
          await trx.updateTable('board_passwords').set({ team_id: input.to_team_id }).where('board_id', '=', job.board_id).execute();
          // The job is the new workspace's from now on (the tray's "Open the board" and the refresh go there).
          await trx.updateTable('board_jobs').set({ team_id: input.to_team_id }).where('id', '=', job.id).execute();
          report({ done: items, stateData: { ...state, items, fixed: true }, result: { board_id: job.board_id, team_id: input.to_team_id, items } });
        } else report({ done: items, stateData: { ...state, items, moved: (state.moved ?? 0) + moved.records } });
        return moved.records;
      });
      ctx.jobs.kick();
      if (batch > 0) return 'more';
    }
    // Both workspaces' open boards reload (the job's end refreshes the board's channel in the new one).
    try {
      await ctx.broadcaster.publish(boardChannel(input.from_team_id, job.board_id), BOARD_EVENTS.refresh, { collection: null, data: { board_id: job.board_id } });
    } catch {
      // Replicas catch up through /changes.
    }
    return 'done';
  },
  /** Puts every record back in the workspace it came from. */
  async cleanup(run) {
    const { ctx, job } = run;
    const input = inputOf(run);
    for (;;) {
      const moved = await run.commit((trx) => moveBatch(trx, job.board_id, input.to_team_id, input.from_team_id, ctx.now(), moveTuning.recordsPerBatch));
      if (moved.records === 0) break;
    }
    await ctx.db.updateTable('board_passwords').set({ team_id: input.from_team_id }).where('board_id', '=', job.board_id).execute();
    await ctx.db.updateTable('board_jobs').set({ team_id: input.from_team_id }).where('id', '=', job.id).execute();
  },
  summary(job) {
    return `${(job.input as unknown as MoveInput).title} was moved`;
  },
};

export function moveRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerBoardJobKind(moveKind);
  const docs = {
    summary: 'Moves a board to another workspace (a background job)',
    tag: 'board-jobs',
    body: moveBoardBody,
    description: `Needs DELETE_BOARD on the board and CREATE_BOARD in the target workspace (the caller must be a member of both); refused (403) when the board holds records the caller may not read, unless the caller owns the workspace; through an API token it needs the admin ability. A board or folder whose member list would be left empty keeps the target workspace's owner (it stays private). The source workspace's owner is told. At most ${MOVE_TARGET_MAX_ITEMS} items. People who are not members of the target leave the board's member lists and members values. Answers 202 with the job.`,
  };
  app.post<{ Params: { teamId: string; boardId: string } }>('/api/:teamId/boards/:boardId/move', { config: { docs } }, async (request, reply) => {
    const teamId = teamIdParam(request.params.teamId);
    const user = await requireUser(ctx.db, request);
    // A move takes the board from everyone in this workspace and rewrites its member lists: through
    // an API token it needs `admin`, like a save that changes members (issue #26, N8).
    if (request.apiToken && !request.apiToken.abilities.includes('admin')) throw new ApiError(403, 'This token does not have the "admin" ability.', 'unauthorized', { required: 'admin', field: 'team_id' });
    const { view, boardId } = await readScope(ctx, request, teamId, request.params.boardId);
    const chain = view.chain(boardId!);
    const root = await ctx.db.selectFrom('records').select(['data', 'created_by']).where('collection', '=', 'folder').where('id', '=', boardId!).where('team_id', '=', teamId).executeTakeFirst();
    const data = root?.data as { parent_id?: string | null; name?: string } | undefined;
    if (!chain || !data || data.parent_id || !view.canViewFolder(boardId!)) throw notFound();
    // DELETE_BOARD is "own" for members by default: asked with the board's creator.
    if (!allowed(view.viewer, Permission.DELETE_BOARD, chain, root!.created_by)) throw unauthorized();
    const body = parseBody(moveBoardBody, request.body);
    const mover: Actor = { userId: user.id, tokenAbilities: request.apiToken ? request.apiToken.abilities : null };
    await ctx.db.transaction().execute((trx) => judgeMove(trx, mover, { from_team_id: teamId, to_team_id: body.team_id }, boardId!, ctx.now()));
    await checkLimit(ctx.db, body.team_id, boardId!, teamId);
    const running = await ctx.db.selectFrom('board_jobs').select('id').where('board_id', '=', boardId!).where('kind', '=', MOVE_KIND).where('state', 'in', ['queued', 'running', 'cancelling']).executeTakeFirst();
    if (running) throw new ApiError(409, BoardJobMessages.moveUnderWay, 'conflict');
    const input: MoveInput = { title: String(data.name ?? ''), from_team_id: teamId, to_team_id: body.team_id, ...startedWith(request.apiToken) };
    const job = await startBoardJob(ctx, { teamId, userId: user.id, boardId: boardId!, kind: MOVE_KIND, input: input as unknown as Record<string, unknown> & { title: string } });
    return reply.status(202).send({ data: toWire(job) });
  });
}
