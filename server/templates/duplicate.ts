import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { nanoid } from 'nanoid';
import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../context';
import { copyCapable } from '../db/copy-in';
import type { Database } from '../db/types';
import { requireUser } from '../auth/guard';
import { notFound, parseBody, unauthorized } from '../http/errors';
import { allowed } from '../sync/access';
import { teamIdParam } from '../sync/params';
import { readScope } from '../sync/read-scope';
import { ReadView } from '../sync/reads';
import { removeWithChildren, saveRecord } from '../sync/operations';
import type { WriteScope } from '../sync/scope';
import { startedWith, tokenAbilitiesOf, writeAs } from '../sync/actor';
import { boardRecords, writeManyCopied, writeManyLogged, type LoggedWrite, type WireRecord } from '../sync/store';
import { findDuplicateAttribute, type AttributeLike } from '../../schema/attributes';
import { recordEvent } from '../events/outbox';
import { requireTeamPermission } from '../workspaces/access';
import { registerBoardJobKind, startBoardJob, type BoardJobRun } from '../board-jobs/runner';
import { loadBoardJobPayload, toWire } from '../board-jobs/store';
import { can } from '../../schema/permissions';
import { Permission } from '../../schema/permission-names';
import { collections } from '../../schema/collections';
import { valueIdFor } from '../../schema/records';
import { primaryAttributeIdFor } from '../../schema/board-defaults';
import { duplicateBoardBody, duplicateFolderBody, type TemplateContent } from '../../schema/templates';
import { idMap, instantiate, nextBoardPosition, PRIMARY_KEY, replaceStrings, snapshotFolder } from './content';

/**
 * "Duplicate board" and "Duplicate folder" as board jobs (decisions 0165 and 0226). Step 1 reads
 * what is to be copied as the user (board or folder with its subfolders; items, values, views,
 * automations and comments as the user chose) and writes the structure through the save path
 * (folders, attributes, views, automations: permissions per record, a few dozen records). Each
 * next step writes up to 1,000 items with their values and comments in one transaction with the
 * batched writer of the CSV import (records, change log and each item's `item.created` event in
 * one statement per 1,000 records, or the whole batch by COPY on PostgreSQL, decision 0362),
 * CREATE_ITEM checked once per batch.
 * Every new id starts with the job's id, so a step that runs again writes the same records and a
 * cancel or failure removes exactly what the job wrote.
 */

export const DUPLICATE_KIND = 'board.duplicate';
export const DUPLICATE_FOLDER_KIND = 'folder.duplicate';
/** Items per transaction (their values and comments come along: ~10,000 records for 8 columns). */
export const ITEMS_PER_BATCH = 1000;

interface DuplicateInput {
  title: string;
  name: string;
  source_board_id: string;
  /** A folder duplicate: the folder copied (within its board); absent for a board. */
  source_folder_id?: string;
  /** The new board, or the new folder of a folder duplicate. */
  new_board_id: string;
  with_items: boolean;
  with_values: boolean;
  with_views: boolean;
  with_automations?: boolean;
  with_comments?: boolean;
  position: number;
}

interface CommentCopy {
  id: string;
  item_id: string;
  parent_id: string | null;
  text: unknown;
  pinned: boolean;
  created_by: number | null;
}

type CopiedContent = TemplateContent & { above?: { id: string; kind: string }[] };

interface DuplicateState {
  /** What is copied, in state_data (jobs started before 0362); now in the job's payload (`stored`). */
  content?: CopiedContent;
  comments?: CommentCopy[];
  /** The content and comments are in the job's payload (read once per server, not with every load of the job). */
  stored?: boolean;
  next?: number;
}

/**
 * The snapshot of a 10,000-item board is megabytes of JSON. Kept in the job's state it was read
 * with every load of the job and written again with every batch's progress (a 10,000-item
 * duplicate took 35 times its floor on PostgreSQL, issue #31); in the payload it is read once per
 * server and never written again.
 */
const snapshots = new Map<string, { content: CopiedContent; comments: CommentCopy[] }>();

async function snapshotOf(run: BoardJobRun, state: DuplicateState): Promise<{ content: CopiedContent; comments: CommentCopy[] }> {
  if (state.content) return { content: state.content, comments: state.comments ?? [] };
  const hit = snapshots.get(run.job.id);
  if (hit) return hit;
  const stored = JSON.parse((await loadBoardJobPayload(run.ctx.db, run.job.id)) ?? 'null') as { content: CopiedContent; comments: CommentCopy[] } | null;
  if (!stored) throw new Error('The copy lost what it was copying; start it again.');
  snapshots.set(run.job.id, stored);
  return stored;
}

/** A new record id: the job's id and a hash of the source key (stable across re-runs; cleanup finds them by the prefix). */
export function derivedId(jobId: string, key: string): string {
  return `${jobId}${createHash('sha256').update(`${jobId}:${key}`).digest('base64url').slice(0, 16)}`;
}

/** Kinds whose values a duplicate leaves out: they hold no value of their own. */
const WITHOUT_VALUES = new Set(['button', 'custom-id', 'time-tracking', 'primary']);

async function scopeOf(ctx: AppContext, trx: Transaction<Database>, job: { team_id: number; user_id: number; input: unknown }) {
  // The member who started it is the actor, with their rights of now and the abilities of the token
  // they started it with, if any: a copy of a hidden folder through a token needs its `admin` (sync/actor.ts).
  const acting = await writeAs(trx, job.team_id, { userId: job.user_id, tokenAbilities: tokenAbilitiesOf(job.input) }, ctx.now());
  if (!acting) throw new Error('The workspace no longer exists.');
  return acting;
}

async function publish(ctx: AppContext, events: { channel: string; event: string; data: unknown }[]): Promise<void> {
  ctx.jobs.kick();
  if (events.length === 0) return;
  try {
    if (ctx.broadcaster.publishMany) await ctx.broadcaster.publishMany(events);
    else for (const e of events) await ctx.broadcaster.publish(e.channel, e.event, e.data);
  } catch {
    // Replicas catch up through /changes.
  }
}

/** The board the copy is written into: the new board, or the source's board for a folder. */
const targetBoard = (input: DuplicateInput) => (input.source_folder_id ? input.source_board_id : input.new_board_id);

/** Old key → new id for everything copied; attributes above a copied folder keep their ids. */
function idsOf(jobId: string, input: DuplicateInput, content: NonNullable<DuplicateState['content']>): Map<string, string> {
  const ids = idMap(content, { boardId: input.new_board_id, newId: (key) => derivedId(jobId, key) });
  ids.set(PRIMARY_KEY, primaryAttributeIdFor(targetBoard(input)));
  for (const a of content.above ?? []) ids.set(a.id, a.id);
  return ids;
}

/** Step 1: read what is copied, write the structure through the save path. */
async function copyStructure(run: BoardJobRun, input: DuplicateInput): Promise<void> {
  const { ctx, job } = run;
  const newId = (key: string) => derivedId(job.id, key);
  const events = await run.commit(async (trx, report) => {
    const { team, role, scope } = await scopeOf(ctx, trx, job);
    const view = await ReadView.open(trx, team, { id: job.user_id, role });
    const sourceId = input.source_folder_id ?? input.source_board_id;
    if (!view.canViewFolder(sourceId)) throw new Error('You can no longer view the board to duplicate.');
    const content = await snapshotFolder(trx, view, team.id, input.source_board_id, sourceId, {
      withItems: input.with_items,
      withValues: input.with_values,
      withViews: input.with_views,
      withAutomations: input.with_automations ?? false,
      sameWorkspace: true,
      keepAbove: !!input.source_folder_id,
    });
    if (input.source_folder_id) await writeFolderStructure(scope, job.id, input, content);
    else await instantiate(scope, content, { boardId: input.new_board_id, name: input.name, newId, position: input.position, items: [], sameWorkspace: true });
    await scope.finish();
    const comments = input.with_items && input.with_comments ? await commentsOf(trx, view, team.id, input.source_board_id, new Set(content.items.map((i) => i.id))) : [];
    const total = content.items.length;
    await trx.updateTable('board_jobs').set({ payload: JSON.stringify({ content, comments }) }).where('id', '=', job.id).execute();
    report({ phase: 'writing', done: 0, total, stateData: { stored: true, next: 0 } satisfies DuplicateState, ...(total === 0 ? { result: { board_id: targetBoard(input), folder_id: input.new_board_id, items: 0 } } : {}) });
    return scope.events;
  });
  await publish(ctx, events);
}

/** A folder copied within its board: the new folder beside the old one, its subfolders, its own attributes and views. */
async function writeFolderStructure(scope: WriteScope, jobId: string, input: DuplicateInput, content: NonNullable<DuplicateState['content']>): Promise<void> {
  const boardId = input.source_board_id;
  const ids = idsOf(jobId, input, content);
  const idOf = (key: string) => ids.get(key) ?? key;
  const source = await scope.record('folder', input.source_folder_id!);
  if (!source) throw notFound();
  const save = (def: (typeof collections)[keyof typeof collections], record: Record<string, unknown>) => saveRecord(scope, def, String(record.id), { row_version: 1, board_id: boardId, ...record });
  // The copy is seen by whom the folder is seen (its access, kept by the snapshot of a duplicate).
  const rootAccess = content.folders.find((f) => f.id === content.root_id)?.access;
  await save(collections.folder, { id: input.new_board_id, parent_id: source.data.parent_id ?? boardId, name: input.name, position: (Number(source.data.position) || 0) + 0.5, ...rootAccess });
  const rest = content.folders.filter((f) => f.id !== content.root_id);
  const written = new Set([content.root_id]);
  while (rest.length) {
    const index = rest.findIndex((f) => f.parent_id !== null && written.has(f.parent_id));
    if (index < 0) break;
    const folder = rest.splice(index, 1)[0]!;
    await save(collections.folder, { id: idOf(folder.id), parent_id: idOf(folder.parent_id!), name: folder.name, position: folder.position, ...folder.access });
    written.add(folder.id);
  }
  // The folder's own attributes are copied on the same board: a name and kind may be there once, so the copy is "Name (copy)".
  const existing = (await boardRecords(scope.trx, scope.team.id, boardId, 'attribute')).filter((r) => !r.deleted_at).map((r) => ({ ...(r.data as object), id: r.id }) as AttributeLike);
  for (const attribute of content.attributes) {
    let name = attribute.name;
    for (let n = 1; findDuplicateAttribute({ kind: attribute.kind, name, board_id: boardId }, existing); n++) name = `${attribute.name.slice(0, 240)} (${n === 1 ? 'copy' : `copy ${n}`})`;
    existing.push({ id: idOf(attribute.id), kind: attribute.kind, name, board_id: boardId } as AttributeLike);
    await save(collections.attribute, { id: idOf(attribute.id), folder_id: idOf(attribute.folder_id), name, kind: attribute.kind, position: attribute.position, ...(attribute.hidden ? { hidden: true } : {}), settings: attribute.settings });
  }
  for (const view of content.views) {
    await save(collections.folder_view, { id: idOf(view.id), folder_id: idOf(view.folder_id), name: view.name, kind: view.kind, visibility: 'shared', position: view.position, settings: replaceStrings(view.settings, ids) });
  }
}

/** The comments of the copied items, as the user may read them, oldest first (parents before replies). */
async function commentsOf(trx: Transaction<Database>, view: ReadView, teamId: number, boardId: string, itemIds: Set<string>): Promise<CommentCopy[]> {
  const rows = await trx.selectFrom('records').select('data').where('team_id', '=', teamId).where('board_id', '=', boardId).where('collection', '=', 'comment').where('deleted_at', 'is', null).execute();
  const readable = await view.filter(trx, 'comment', rows.map((r) => r.data as WireRecord));
  return readable
    .filter((c) => itemIds.has(String(c.item_id)))
    .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)))
    .map((c) => ({ id: c.id, item_id: String(c.item_id), parent_id: (c.parent_id as string | null) ?? null, text: c.text, pinned: c.pinned === true, created_by: (c.created_by as number | null) ?? null }));
}

/** One batch of items with their values and comments, through the batched writer, with the cursor and progress. */
async function copyItems(run: BoardJobRun, input: DuplicateInput, state: DuplicateState, snapshot: { content: CopiedContent; comments: CommentCopy[] }): Promise<'more' | 'done'> {
  const { ctx, job } = run;
  const { content } = snapshot;
  const next = state.next ?? 0;
  const slice = content.items.slice(next, next + ITEMS_PER_BATCH);
  const done = next + slice.length;
  const boardId = targetBoard(input);
  const ids = idsOf(job.id, input, content);
  const idOf = (key: string) => ids.get(key) ?? key;
  const kinds = new Map<string, string>([...content.attributes.map((a) => [a.id, a.kind] as const), ...(content.above ?? []).map((a) => [a.id, a.kind] as const)]);
  const copiedItems = new Set(content.items.map((i) => i.id));
  const inSlice = new Set(slice.map((i) => i.id));
  const comments = snapshot.comments.filter((c) => inSlice.has(c.item_id));

  await run.commit(async (trx, report) => {
    const { scope } = await scopeOf(ctx, trx, job);
    await scope.lock('shared');
    // Permissions once per batch, on every folder the batch writes into.
    for (const folder of new Set(slice.map((i) => idOf(i.folder_id)))) scope.require('CREATE_ITEM', await scope.chain(boardId, folder), job.user_id);
    const now = scope.now;
    const stamp = now.toISOString();
    const via = { board_job_id: job.id };
    const writes: LoggedWrite[] = [];
    for (const item of slice) {
      const itemId = idOf(item.id);
      const record: WireRecord = { id: itemId, board_id: boardId, folder_id: idOf(item.folder_id), name: item.name, position: item.position, row_version: 1, team_id: job.team_id, created_at: stamp, updated_at: stamp, created_by: job.user_id, deleted_at: null };
      writes.push({ collection: 'item', record, createdBy: job.user_id, deletedAt: null, op: 'saved', event: recordEvent({ teamId: job.team_id, collection: 'item', change: 'saved', record, previous: null, actorId: job.user_id, itemId, via }) });
      for (const [key, raw] of Object.entries(item.values)) {
        const kind = kinds.get(key);
        if (!kind || WITHOUT_VALUES.has(kind)) continue;
        let value: unknown = raw;
        if (kind === 'reference') value = Array.isArray(raw) ? raw.filter((id): id is string => typeof id === 'string' && copiedItems.has(id)).map(idOf) : [];
        if (value === null || (Array.isArray(value) && value.length === 0)) continue;
        const attributeId = idOf(key);
        writes.push({ collection: 'value', record: { id: valueIdFor(itemId, attributeId), board_id: boardId, item_id: itemId, attribute_id: attributeId, value: value as never, row_version: 1, team_id: job.team_id, created_at: stamp, updated_at: stamp }, createdBy: job.user_id, deletedAt: null, op: 'saved', event: null });
      }
    }
    // Comments keep their authors and text; they tell nobody again (no events: no mentions or notifications for a copy).
    for (const c of comments) {
      const record: WireRecord = { id: derivedId(job.id, `c:${c.id}`), board_id: boardId, item_id: idOf(c.item_id), parent_id: c.parent_id ? derivedId(job.id, `c:${c.parent_id}`) : null, text: c.text as never, pinned: c.pinned, created_by: c.created_by, edited_at: null, row_version: 1, team_id: job.team_id, created_at: stamp, updated_at: stamp };
      writes.push({ collection: 'comment', record, createdBy: c.created_by, deletedAt: null, op: 'saved', event: null });
    }
    // On PostgreSQL the whole batch in one COPY (decision 0362); on PGlite 1,000 records a statement.
    const copy = copyCapable(ctx.db);
    const per = copy ? Math.max(writes.length, 1) : 1000;
    for (let i = 0; i < writes.length; i += per) {
      const part = writes.slice(i, i + per);
      const written = copy ? await writeManyCopied(trx, job.team_id, now, part) : await writeManyLogged(trx, job.team_id, now, part);
      if (written !== part.length) throw new Error('Some copied records were changed by someone else while the copy ran.');
    }
    const finished = done >= content.items.length;
    report({ phase: 'writing', done, stateData: { ...state, next: done } satisfies DuplicateState, ...(finished ? { result: { board_id: boardId, folder_id: input.new_board_id, items: done } } : {}) });
  });
  ctx.jobs.kick();
  // Open boards hear of the new items through their refresh at the job's end (decision 0160) and /changes.
  return done >= content.items.length ? 'done' : 'more';
}

async function step(run: BoardJobRun): Promise<'more' | 'done'> {
  const input = run.job.input as unknown as DuplicateInput;
  const state = (run.job.state_data ?? {}) as DuplicateState;
  if (!state.content && !state.stored) {
    await copyStructure(run, input);
    return 'more';
  }
  const snapshot = await snapshotOf(run, state);
  if ((state.next ?? 0) >= snapshot.content.items.length) {
    snapshots.delete(run.job.id);
    return 'done';
  }
  const outcome = await copyItems(run, input, state, snapshot);
  if (outcome === 'done') snapshots.delete(run.job.id);
  return outcome;
}

/** Removes everything the job wrote (ids start with the job's id), then the new board or folder itself, for good. */
async function cleanup(run: BoardJobRun): Promise<void> {
  const { ctx, job } = run;
  const input = job.input as unknown as DuplicateInput;
  snapshots.delete(job.id);
  for (;;) {
    const removed = await run.commit(async (trx) => {
      const { rows } = await sql<{ n: string }>`
        with doomed as (
          select collection, id from records where team_id = ${job.team_id} and id like ${`${job.id}%`} limit 20000
        ), gone as (
          delete from records r using doomed d where r.collection = d.collection and r.id = d.id
          returning r.collection, r.id, r.board_id
        ), logged as (
          insert into change_log (team_id, board_id, collection, record_id, op, at)
          select ${job.team_id}, board_id, collection, id, 'deleted', ${ctx.now()} from gone
          returning 1
        )
        select count(*) as n from logged`.execute(trx);
      return Number(rows[0]?.n ?? 0);
    });
    if (removed === 0) break;
  }
  const events = await run.commit(async (trx) => {
    const { scope } = await scopeOf(ctx, trx, job);
    await scope.lock('exclusive');
    const root = await scope.record('folder', input.new_board_id);
    if (root) await removeWithChildren(scope, root);
    return scope.events;
  });
  await publish(ctx, events);
}

function summary(job: { input: unknown }): string {
  return String((job.input as DuplicateInput).name ?? '');
}

export function duplicateRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerBoardJobKind({ kind: DUPLICATE_KIND, step, cleanup, summary });
  registerBoardJobKind({ kind: DUPLICATE_FOLDER_KIND, step, cleanup, summary });

  // Starts a duplicate: CREATE_BOARD in the workspace, and the board must be one the caller views.
  app.post<{ Params: { teamId: string; boardId: string } }>('/api/:teamId/boards/:boardId/duplicate', async (request, reply) => {
    const teamId = teamIdParam(request.params.teamId);
    const user = await requireUser(ctx.db, request);
    await requireTeamPermission(ctx, user, teamId, Permission.CREATE_BOARD);
    const { view, boardId } = await readScope(ctx, request, teamId, request.params.boardId);
    const chain = view.chain(boardId!);
    if (!chain || !can({ permission: Permission.VIEW_BOARD, user: view.viewer, chain })) throw unauthorized();
    const body = parseBody(duplicateBoardBody, request.body);
    // Automations need MANAGE_AUTOMATIONS on the new board: the workspace's rule (a new board has no entries of its own).
    const withAutomations = body.with_automations && allowed(view.viewer, 'MANAGE_AUTOMATIONS', [chain[0]!]);
    const position = await nextBoardPosition(ctx.db, teamId);
    // The new board's id is chosen now and kept in the job's input, so every step and the cleanup name the same board.
    const input: DuplicateInput = { title: body.name, name: body.name, source_board_id: boardId!, new_board_id: newRootId(), with_items: body.with_items, with_values: body.with_values, with_views: body.with_views, with_automations: withAutomations, with_comments: body.with_comments, position };
    const job = await startBoardJob(ctx, { teamId, userId: user.id, boardId: boardId!, kind: DUPLICATE_KIND, input: { ...input, ...startedWith(request.apiToken) } as unknown as Record<string, unknown> & { title: string } });
    return reply.status(202).send({ data: { job: toWire(job), board_id: input.new_board_id } });
  });

  // Duplicates a folder (with its subfolders) beside itself on its board: CREATE_FOLDER on the board and where it is, VIEW on it.
  app.post<{ Params: { teamId: string; boardId: string } }>('/api/:teamId/boards/:boardId/duplicate-folder', { config: { docs: { summary: 'Duplicate a folder beside itself as a background job', tag: 'Templates', body: duplicateFolderBody, description: 'The folder (`folder_id`) and its subfolders, with or without items, values, views and comments (its automations are the board’s). Needs CREATE_FOLDER on the board and where the folder is, CREATE_ITEM there to copy items; answers the board job and the new folder’s id.' } } }, async (request, reply) => {
    const teamId = teamIdParam(request.params.teamId);
    const user = await requireUser(ctx.db, request);
    const { view, boardId } = await readScope(ctx, request, teamId, request.params.boardId);
    const boardChain = view.chain(boardId!);
    if (!boardChain || !allowed(view.viewer, 'CREATE_FOLDER', boardChain)) throw unauthorized();
    const body = parseBody(duplicateFolderBody, request.body);
    const folderId = body.folder_id;
    const folderChain = view.chain(folderId);
    if (folderId === boardId || !folderChain || !view.canViewIn(folderId, boardId!)) throw notFound();
    // The copy goes where the folder is: the chain of its parent.
    const parentChain = folderChain.slice(0, -1);
    if (!allowed(view.viewer, 'CREATE_FOLDER', parentChain.length ? parentChain : folderChain)) throw unauthorized();
    if (body.with_items && !allowed(view.viewer, 'CREATE_ITEM', folderChain)) throw unauthorized();
    const input: DuplicateInput = { title: body.name, name: body.name, source_board_id: boardId!, source_folder_id: folderId, new_board_id: newRootId(), with_items: body.with_items, with_values: body.with_values, with_views: body.with_views, with_automations: false, with_comments: body.with_comments, position: 0 };
    const job = await startBoardJob(ctx, { teamId, userId: user.id, boardId: boardId!, kind: DUPLICATE_FOLDER_KIND, input: { ...input, ...startedWith(request.apiToken) } as unknown as Record<string, unknown> & { title: string } });
    return reply.status(202).send({ data: { job: toWire(job), folder_id: input.new_board_id } });
  });
}

function newRootId(): string {
  return nanoid();
}
