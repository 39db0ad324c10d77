import { checkValue, findDuplicateAttribute, type AttributeLike } from '../../schema/attributes';
import { collections } from '../../schema/collections';
import type { BoardJobProblem } from '../../schema/board-jobs';
import { valueIdFor } from '../../schema/records';
import { escapeHtml } from '../http/html-page';
import { saveRecord } from '../sync/operations';
import { sanitizeCommentHtml } from '../sync/sanitize';
import { boardRecords, type LoggedWrite, type WireRecord } from '../sync/store';
import { copyCapable } from '../db/copy-in';
import { importedWrite, lastItemPosition, openBatchScope, openScope, publishEvents, removeJobRecords, writeImported } from '../board-jobs/import-steps';
import type { BoardJobKind, BoardJobRun } from '../board-jobs/runner';
import { loadBoardJobPayload, type BoardJobRow } from '../board-jobs/store';
import type { ImportPlan, PlanAttribute } from './import-plan';

/**
 * The Trello and Gitlab import jobs (kinds `import.trello`, `import.gitlab`; decision 0220). The
 * route turns the source into an ImportPlan (the job's payload); step 1 creates the subfolders
 * and attributes through the save path (permissions, names), then each step writes a batch of
 * items with their values and comments in one transaction with the progress and the cursor, like
 * the CSV import (decision 0161). Ids come from the job id (`{job}f{n}`, `{job}a{n}`, `{job}i{n}`,
 * `{job}c{n}x{k}`): cleanup after a cancel or a failure removes every record starting with it.
 */

export const TRELLO_IMPORT_KIND = 'import.trello';
export const GITLAB_IMPORT_KIND = 'import.gitlab';
/** Items per transaction (an item has up to ~10 values and its comments). */
export const planBatch = { items: 500 };

export interface PlanImportInput {
  title: string;
  folder_id: string;
  source: 'trello' | 'gitlab';
  /** The abilities of the API token it was started with (sync/actor.ts), absent for a session. */
  token_abilities?: string[];
}

interface PreparedAttribute {
  id: string;
  kind: string;
  name: string;
  settings: Record<string, unknown>;
  options?: Record<string, string>;
}

interface PlanState {
  prepared?: boolean;
  attributes?: Record<string, PreparedAttribute>;
  folders?: Record<string, string>;
  next?: number;
  position?: number;
  created?: number;
  comments?: number;
}

const inputOf = (job: BoardJobRow) => job.input as unknown as PlanImportInput;
const stateOf = (job: BoardJobRow) => (job.state_data ?? {}) as PlanState;

/** Plans of running imports, parsed once per server (the payload is re-read after a restart). */
const plans = new Map<string, ImportPlan>();
async function planOf(run: BoardJobRun): Promise<ImportPlan> {
  const hit = plans.get(run.job.id);
  if (hit) return hit;
  const plan = JSON.parse((await loadBoardJobPayload(run.ctx.db, run.job.id)) ?? 'null') as ImportPlan | null;
  if (!plan) throw new Error('The import’s data is gone.');
  if (plans.size >= 2) plans.delete(plans.keys().next().value!);
  plans.set(run.job.id, plan);
  return plan;
}

function settingsFor(jobId: string, index: number, a: PlanAttribute): Record<string, unknown> {
  const options = (a.options ?? []).map((o, n) => ({ id: `${jobId}o${index}x${n}`, name: o.name, color: o.color ?? '#E2E4F0', textColor: '#4C4E69', ...(a.kind === 'status' ? { done: o.done === true } : {}) }));
  switch (a.kind) {
    case 'label':
      return { options, multiple: a.multiple === true };
    case 'status':
      return { options };
    case 'date':
      return { withTime: a.withTime === true };
    case 'members':
      return { multiple: a.multiple !== false };
    default:
      return {};
  }
}

/** Step 1: the subfolders (one per Trello list) and the new attributes. */
async function prepare(run: BoardJobRun): Promise<void> {
  const { job } = run;
  const input = inputOf(job);
  const plan = await planOf(run);
  const events = await run.commit(async (trx, report) => {
    const scope = await openScope(run, trx, 'exclusive');
    scope.require('CREATE_ITEM', await scope.chain(job.board_id, input.folder_id), job.user_id);
    const folders: Record<string, string> = {};
    for (const [n, folder] of plan.folders.entries()) {
      const id = `${job.id}f${n}`;
      await saveRecord(scope, collections.folder, id, { id, board_id: job.board_id, parent_id: input.folder_id, name: folder.name, position: n + 1, row_version: 1 });
      folders[folder.key] = id;
    }
    const existing = (await boardRecords(trx, job.team_id, job.board_id, 'attribute')).filter((r) => !r.deleted_at).map((r) => ({ ...(r.data as object), id: r.id, board_id: r.board_id }) as AttributeLike & { name: string; position?: number });
    let position = Math.max(0, ...existing.map((a) => Number(a.position) || 0));
    const attributes: Record<string, PreparedAttribute> = {};
    for (const [n, a] of plan.attributes.entries()) {
      const id = `${job.id}a${n}`;
      // A board that already has "Labels" (same kind) gets "Labels (Trello)", then "Labels (Trello) 2", …
      const source = input.source === 'trello' ? 'Trello' : 'Gitlab';
      let name = a.name;
      for (let k = 1; findDuplicateAttribute({ kind: a.kind, name, board_id: job.board_id }, existing); k++) name = k === 1 ? `${a.name} (${source})` : `${a.name} (${source}) ${k}`;
      const settings = settingsFor(job.id, n, a);
      position += 1;
      await saveRecord(scope, collections.attribute, id, { id, board_id: job.board_id, folder_id: job.board_id, name, kind: a.kind, position, settings, row_version: 1 });
      existing.push({ id, kind: a.kind, name, board_id: job.board_id });
      const options = (a.options ?? []).map((o, k) => [o.key, `${job.id}o${n}x${k}`]);
      attributes[a.key] = { id, kind: a.kind, name, settings, ...(options.length ? { options: Object.fromEntries(options) } : {}) };
    }
    await scope.finish();
    await scope.flushWrites();
    const position0 = await lastItemPosition(trx, job, input.folder_id);
    report({
      phase: 'writing',
      total: plan.items.length,
      problems: plan.skipped.slice(0, 200),
      stateData: { prepared: true, attributes, folders, next: 0, position: position0, created: 0, comments: 0 } satisfies PlanState,
    });
    return scope.events;
  });
  await publishEvents(run, events);
}

/** A plan value as the attribute's value (option keys become option ids), checked like the save path does. */
export function planValue(attribute: PreparedAttribute, raw: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  let value = raw;
  if (attribute.kind === 'label' || attribute.kind === 'status') {
    const keys = Array.isArray(raw) ? raw : [raw];
    const ids = keys.map((k) => attribute.options?.[String(k)]).filter((id): id is string => !!id);
    if (ids.length !== keys.length) return { ok: false, message: 'choose one of the options' };
    value = attribute.kind === 'label' && (attribute.settings as { multiple?: boolean }).multiple ? ids : ids[0];
  }
  return checkValue({ kind: attribute.kind, settings: attribute.settings } as AttributeLike, value);
}

/** A comment's text as the comment editor's HTML: paragraphs, the Trello author and date in front. */
export function commentHtml(comment: { text: string; author_name: string; author_id: number | null; at: string | null }): string {
  const lines = comment.text.split(/\n{2,}/).map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`);
  const by = comment.author_id === null ? `${comment.author_name}` : '';
  const when = comment.at ? comment.at.slice(0, 10) : '';
  const head = [by, when].filter(Boolean).join(', ');
  return sanitizeCommentHtml(`${head ? `<p><em>${escapeHtml(head)}</em></p>` : ''}${lines.join('')}`);
}

async function writeBatch(run: BoardJobRun): Promise<'more' | 'done'> {
  const { job } = run;
  const input = inputOf(job);
  const state = stateOf(job);
  const plan = await planOf(run);
  const from = state.next ?? 0;
  const to = Math.min(from + planBatch.items, plan.items.length);
  await run.commit(async (trx, report) => {
    const scope = await openBatchScope(run, trx, input.folder_id);
    const now = scope.now;
    const stamp = now.toISOString();
    const writes: LoggedWrite[] = [];
    const problems: BoardJobProblem[] = [];
    let created = state.created ?? 0;
    let commentCount = state.comments ?? 0;
    for (let n = from; n < to; n++) {
      const item = plan.items[n]!;
      const itemId = `${job.id}i${n}`;
      const folderId = item.folder ? (state.folders?.[item.folder] ?? input.folder_id) : input.folder_id;
      const record: WireRecord = { id: itemId, board_id: job.board_id, folder_id: folderId, name: item.name, position: (folderId === input.folder_id ? (state.position ?? 0) : 0) + n + 1, row_version: 1, team_id: job.team_id, created_at: stamp, updated_at: stamp, created_by: job.user_id, deleted_at: null };
      // Items get their `item.created` event (webhooks, automations, the activity log); values and comments are part of it.
      writes.push(importedWrite(job, 'item', record));
      created++;
      for (const [key, raw] of Object.entries(item.values)) {
        const attribute = state.attributes?.[key];
        if (!attribute) continue;
        const value = planValue(attribute, raw);
        if (!value.ok) {
          problems.push({ row: n + 1, column: attribute.name, message: value.message });
          continue;
        }
        if (value.value === null) continue;
        writes.push(importedWrite(job, 'value', { id: valueIdFor(itemId, attribute.id), board_id: job.board_id, item_id: itemId, attribute_id: attribute.id, value: value.value as never, row_version: 1, team_id: job.team_id, created_at: stamp, updated_at: stamp }));
      }
      for (const [k, comment] of item.comments.entries()) {
        const html = commentHtml(comment);
        if (!html.replace(/<[^>]*>/g, '').trim()) continue;
        const author = comment.author_id ?? job.user_id;
        writes.push(importedWrite(job, 'comment', { id: `${job.id}c${n}x${k}`, board_id: job.board_id, item_id: itemId, parent_id: null, text: { html }, pinned: false, edited_at: null, created_by: author, row_version: 1, team_id: job.team_id, created_at: comment.at && !Number.isNaN(Date.parse(comment.at)) ? new Date(comment.at).toISOString() : stamp, updated_at: stamp }, author));
        commentCount++;
      }
    }
    await writeImported(trx, job.team_id, now, writes, { copy: copyCapable(run.ctx.db) });
    const done = to >= plan.items.length;
    report({
      phase: 'writing',
      done: to,
      problems,
      stateData: { ...state, next: to, created, comments: commentCount },
      ...(done ? { result: { board_id: job.board_id, folder_id: input.folder_id, items: created, comments: commentCount, folders: Object.values(state.folders ?? {}).length, skipped: plan.skipped.length } } : {}),
    });
  });
  return to >= plan.items.length ? 'done' : 'more';
}

/** Removes every record the job wrote (ids start with the job id), with tombstones for the replicas. */
async function cleanup(run: BoardJobRun): Promise<void> {
  plans.delete(run.job.id);
  await removeJobRecords(run, ['value', 'comment', 'item', 'attribute', 'folder']);
}

function planKind(kind: string): BoardJobKind {
  return {
    kind,
    async step(run) {
      if (!stateOf(run.job).prepared) {
        await prepare(run);
        return 'more';
      }
      const outcome = await writeBatch(run);
      if (outcome === 'done') plans.delete(run.job.id);
      return outcome;
    },
    cleanup,
    summary(job) {
      const result = (job.result ?? {}) as { items?: number; comments?: number };
      return `${result.items ?? 0} items imported from ${inputOf(job).title}${result.comments ? ` with ${result.comments} comments` : ''}`;
    },
  };
}

export const trelloImportKind = planKind(TRELLO_IMPORT_KIND);
export const gitlabImportKind = planKind(GITLAB_IMPORT_KIND);
