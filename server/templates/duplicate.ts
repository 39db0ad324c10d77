import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { nanoid } from 'nanoid';
import type { Transaction } from 'kysely';
import type { AppContext } from '../context';
import type { Database } from '../db/types';
import { requireUser } from '../auth/guard';
import { parseBody, unauthorized } from '../http/errors';
import { loadTeamAndRole } from '../sync/access';
import { teamIdParam } from '../sync/params';
import { readScope } from '../sync/read-scope';
import { ReadView } from '../sync/reads';
import { removeWithChildren } from '../sync/operations';
import { WriteScope } from '../sync/scope';
import { requireTeamPermission } from '../workspaces/access';
import { registerBoardJobKind, startBoardJob, type BoardJobRun } from '../board-jobs/runner';
import { toWire } from '../board-jobs/store';
import { can } from '../../schema/permissions';
import { Permission } from '../../schema/permission-names';
import { duplicateBoardBody, type TemplateContent } from '../../schema/templates';
import { instantiate, nextBoardPosition, snapshotFolder } from './content';

/**
 * "Duplicate board" as a board job (decision 0160's API; decision 0165): step 1 copies the board's
 * structure (folders, attributes, views) and reads what is to be copied into the job's state;
 * each next step writes a slice of items with their values. Every new id derives from the job's
 * id, so a step that runs again writes the same records; a cancel or a failure removes the new
 * board for good (cleanup). Writes go through the save path as the user who asked, so the
 * permissions hold at every step.
 */

export const DUPLICATE_KIND = 'board.duplicate';
/** Items per write; a step writes slices until its share of the runner is used. */
const ITEMS_PER_SLICE = 200;

interface DuplicateInput {
  title: string;
  name: string;
  source_board_id: string;
  new_board_id: string;
  with_items: boolean;
  with_values: boolean;
  with_views: boolean;
  position: number;
}

interface DuplicateState {
  content?: TemplateContent;
  next?: number;
}

/** A new record id derived from the job and the source key (stable across re-runs of a step). */
export function derivedId(jobId: string, key: string): string {
  return createHash('sha256').update(`${jobId}:${key}`).digest('base64url').slice(0, 21);
}

/** The user's write scope inside the step's transaction (every read through `trx`: PGlite has one connection). */
async function scopeOf(ctx: AppContext, trx: Transaction<Database>, teamId: number, userId: number) {
  const found = await loadTeamAndRole(trx, teamId, userId);
  if (!found) throw new Error('The workspace no longer exists.');
  const { team, role } = found;
  return { team, role, scope: new WriteScope(trx, team, { id: userId, role, teamId }, ctx.now()) };
}

/** Publishes a committed step's changes to open boards (a realtime failure is not the job's). */
async function publish(ctx: AppContext, scope: WriteScope): Promise<void> {
  ctx.jobs.kick();
  if (!ctx.broadcaster.publishMany || scope.events.length === 0) return;
  try {
    await ctx.broadcaster.publishMany(scope.events);
  } catch {
    // Replicas catch up through /changes.
  }
}

async function step(run: BoardJobRun): Promise<'more' | 'done'> {
  const { ctx, job } = run;
  const input = job.input as unknown as DuplicateInput;
  const state = (job.state_data ?? {}) as DuplicateState;
  const newId = (key: string) => derivedId(job.id, key);

  if (!state.content) {
    const { scope, total } = await run.commit(async (trx, report) => {
      const { team, role, scope } = await scopeOf(ctx, trx, job.team_id, job.user_id);
      const view = await ReadView.open(trx, team, { id: job.user_id, role });
      if (!view.canViewFolder(input.source_board_id)) throw new Error('You can no longer view the board to duplicate.');
      const content = await snapshotFolder(trx, view, team.id, input.source_board_id, input.source_board_id, { withItems: input.with_items, withValues: input.with_values, withViews: input.with_views, sameWorkspace: true });
      await instantiate(scope, content, { boardId: input.new_board_id, name: input.name, newId, position: input.position, items: [], sameWorkspace: true });
      await scope.finish();
      const total = content.items.length;
      report({ phase: 'writing', done: 0, total, stateData: { content, next: 0 } satisfies DuplicateState, ...(total === 0 ? { result: { board_id: input.new_board_id, items: 0 } } : {}) });
      return { scope, total };
    });
    await publish(ctx, scope);
    return total === 0 ? 'done' : 'more';
  }

  const content = state.content;
  const next = state.next ?? 0;
  const slice = content.items.slice(next, next + ITEMS_PER_SLICE);
  const done = next + slice.length;
  const scope = await run.commit(async (trx, report) => {
    const { scope } = await scopeOf(ctx, trx, job.team_id, job.user_id);
    await instantiate(scope, content, { boardId: input.new_board_id, name: input.name, newId, items: slice, structure: false, sameWorkspace: true });
    await scope.finish();
    report({ done, stateData: { content, next: done } satisfies DuplicateState, ...(done >= content.items.length ? { result: { board_id: input.new_board_id, items: done } } : {}) });
    return scope;
  });
  await publish(ctx, scope);
  return done >= content.items.length ? 'done' : 'more';
}

/** Removes the new board and everything in it, for good (nothing half-made is left). */
async function cleanup(run: BoardJobRun): Promise<void> {
  const { ctx, job } = run;
  const input = job.input as unknown as DuplicateInput;
  const scope = await run.commit(async (trx) => {
    const { scope } = await scopeOf(ctx, trx, job.team_id, job.user_id);
    await scope.lock('exclusive');
    const board = await scope.record('folder', input.new_board_id);
    if (board) await removeWithChildren(scope, board);
    return scope;
  });
  await publish(ctx, scope);
}

export function duplicateRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerBoardJobKind({ kind: DUPLICATE_KIND, step, cleanup, summary: (job) => String((job.input as unknown as DuplicateInput).name ?? '') });

  // Starts a duplicate: CREATE_BOARD in the workspace, and the board must be one the caller views.
  app.post<{ Params: { teamId: string; boardId: string } }>('/api/:teamId/boards/:boardId/duplicate', async (request, reply) => {
    const teamId = teamIdParam(request.params.teamId);
    const user = await requireUser(ctx.db, request);
    await requireTeamPermission(ctx, user, teamId, Permission.CREATE_BOARD);
    const { view, boardId } = await readScope(ctx, request, teamId, request.params.boardId);
    const chain = view.chain(boardId!);
    if (!chain || !can({ permission: Permission.VIEW_BOARD, user: view.viewer, chain })) throw unauthorized();
    const body = parseBody(duplicateBoardBody, request.body);
    const position = await nextBoardPosition(ctx.db, teamId);
    // The new board's id is chosen now and kept in the job's input, so every step and the cleanup name the same board.
    const input: DuplicateInput = { title: body.name, name: body.name, source_board_id: boardId!, new_board_id: nanoid(), with_items: body.with_items, with_values: body.with_values, with_views: body.with_views, position };
    const job = await startBoardJob(ctx, { teamId, userId: user.id, boardId: boardId!, kind: DUPLICATE_KIND, input: input as unknown as Record<string, unknown> & { title: string } });
    return reply.status(202).send({ data: { job: toWire(job), board_id: input.new_board_id } });
  });
}
