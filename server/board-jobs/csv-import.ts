import fsp from 'node:fs/promises';
import { checkValue, isEmptyValue, newLabel, type AttributeLike } from '../../schema/attributes';
import { collections } from '../../schema/collections';
import { cellValue, CSV_IMPORT_MAX_ROWS, CsvImportMessages, LABEL_MAX_OPTIONS, type ColumnTarget, type DateFormat } from '../../schema/csv-import';
import type { BoardJobProblem } from '../../schema/board-jobs';
import { valueIdFor } from '../../schema/records';
import { copyCapable } from '../db/copy-in';
import { ApiError } from '../http/errors';
import { saveRecord } from '../sync/operations';
import { boardRecords, type LoggedWrite, type WireRecord } from '../sync/store';
import { importedWrite, lastItemPosition, openBatchScope, openScope, publishEvents, removeJobRecords, writeImported } from './import-steps';
import { cachedPayload, forgetPayload, parseCsvOffThread, rememberParsed, type ParsedCsv } from './csv-parse';
import { removeUpload, uploadFile } from './csv-upload';
import { JobRefusal, type BoardJobKind, type BoardJobRun } from './runner';
import { loadBoardJobPayload, saveProgress, type BoardJobRow } from './store';

/**
 * The CSV import job (kind `import.csv`, decision 0161). Step 1 reads the file in a worker
 * thread (phase `parsing`, issue #31; an uploaded file is read only here) and creates the new attributes
 * (through the save path: permissions, duplicate names) and label options; then each step writes
 * a batch of rows as items and values in one transaction with the progress and the cursor, so a
 * retried step writes exactly the rows that did not commit. Ids come from the job id
 * (`{job}i{row}`, `{job}a{column}`): cleanup removes every record whose id starts with it.
 */

export const CSV_IMPORT_KIND = 'import.csv';
/** Rows per transaction at most on the embedded database: ~11,000 records for 10 columns, written 1,000 per statement. */
export const ROWS_PER_BATCH = 1000;
/**
 * How long one batch's transaction may hold the embedded database (PGlite is one connection on
 * the server's thread: every request waits while it runs). The batch size follows it: each batch
 * is sized from the time the last one took (issue #31). On PostgreSQL a batch holds only its own
 * connection: `postgresBatch` rows a transaction, sent in one COPY (decision 0362).
 */
export const csvImportTuning = { batchMs: 50, firstBatch: 50, minBatch: 10, postgresBatch: 2000 };
/** The next batch size of each running import on this server (a restart starts again from firstBatch). */
const batchSizes = new Map<string, number>();

function nextBatchSize(previous: number, rows: number, ms: number): number {
  if (rows === 0) return previous;
  const fitting = Math.floor((rows * csvImportTuning.batchMs) / Math.max(ms, 1));
  // At most double at a time (one fast batch on an idle moment is no promise), never below minBatch.
  return Math.max(csvImportTuning.minBatch, Math.min(ROWS_PER_BATCH, previous * 2, fitting));
}

export interface CsvImportInput {
  title: string;
  folder_id: string;
  delimiter: string;
  header: boolean;
  columns: ColumnTarget[];
  /** An uploaded file waiting under DATA_DIR/imports (embedded database; csv-upload.ts); otherwise the text is the job's payload. */
  upload?: string;
}

/** What a parsed file must be to be imported: rows, not too many, one target per column. */
export function problemsOfParsed(parsed: ParsedCsv, targets: number): string[] {
  if (parsed.rows.length === 0) return [CsvImportMessages.noRows];
  if (parsed.rows.length > CSV_IMPORT_MAX_ROWS) return [CsvImportMessages.rowLimit(CSV_IMPORT_MAX_ROWS)];
  if (targets !== parsed.header.length) return [`columns: the file has ${parsed.header.length} columns, ${targets} targets were given`];
  return [];
}

/** What a column writes into, once prepared. */
interface PreparedColumn {
  id: string;
  kind: string;
  format: DateFormat;
  settings: Record<string, unknown>;
  /** Label/status option ids by lower-cased name. */
  options?: Record<string, string>;
  name: string;
}

interface ImportState {
  prepared?: boolean;
  columns?: Record<string, PreparedColumn>;
  next?: number;
  position?: number;
  created?: number;
  skipped?: number;
}

/** Kinds of existing attributes an import can fill (the rest hold ids of people, items or files). */
export const IMPORTABLE_EXISTING = ['primary', 'text', 'long-text', 'number', 'date', 'email', 'link', 'label', 'status', 'checkbox'];

const inputOf = (job: BoardJobRow) => job.input as CsvImportInput;
const stateOf = (job: BoardJobRow) => (job.state_data ?? {}) as ImportState;

/**
 * The job's CSV, parsed in a worker thread (kept in memory between steps; read again from the
 * upload or the row after a restart or on another server). While it reads, the job shows the
 * phase `parsing` and the rows read so far (at most one progress write a half second).
 */
async function parsed(run: BoardJobRun): Promise<ParsedCsv> {
  const { ctx, job } = run;
  const hit = cachedPayload(job.id);
  if (hit) return hit;
  const input = inputOf(job);
  let source: { file: string } | { text: string };
  if (input.upload) {
    const file = uploadFile(ctx, input.upload);
    if (!(await fsp.stat(file).catch(() => null))) throw new JobRefusal('The uploaded file is no longer on the server; start the import again.');
    source = { file };
  } else source = { text: (await loadBoardJobPayload(ctx.db, job.id)) ?? '' };
  // Progress only in the first phase (a server that reads the file again mid-import keeps the writing figures).
  const first = !stateOf(job).prepared;
  let saved = 0;
  let saving: Promise<void> = Promise.resolve();
  const onRows = (rows: number) => {
    if (!first || performance.now() - saved < 500) return;
    saved = performance.now();
    const done = job.total > 0 ? Math.min(rows, job.total) : 0;
    saving = saving.then(() => saveProgress(ctx.db, job.id, { phase: 'parsing', done }, ctx.now())).catch(() => undefined);
  };
  if (first && job.phase !== 'parsing') await saveProgress(ctx.db, job.id, { phase: 'parsing' }, ctx.now());
  const csv = await parseCsvOffThread(source, { delimiter: input.delimiter, header: input.header, onRows });
  await saving;
  return rememberParsed(job.id, csv);
}

/** Step 1: the new attributes (with their label options) and where the items go. */
async function prepare(run: BoardJobRun): Promise<void> {
  const { job } = run;
  const input = inputOf(job);
  const csv = await parsed(run);
  // An uploaded file is checked here, as the JSON form is before its answer (a failed job with the reason).
  const problems = problemsOfParsed(csv, input.columns.length);
  if (problems.length) throw new JobRefusal(problems.join(' '));
  const events = await run.commit(async (trx, report) => {
    const scope = await openScope(run, trx, 'exclusive');
    scope.require('CREATE_ITEM', await scope.chain(job.board_id, input.folder_id), job.user_id);
    const existing = new Map((await boardRecords(trx, job.team_id, job.board_id, 'attribute')).filter((r) => !r.deleted_at).map((r) => [r.id, r.data]));
    let position = Math.max(0, ...[...existing.values()].map((a) => Number(a.position) || 0));
    const columns: Record<string, PreparedColumn> = {};
    for (const [index, target] of input.columns.entries()) {
      if (target.to === 'new') {
        const id = `${job.id}a${index}`;
        const settings: Record<string, unknown> = {};
        if (target.kind === 'label') {
          const names = distinctCells(csv, index);
          settings.options = names.slice(0, 200).map((name, n) => newLabel(`${job.id}o${index}x${n}`, name.slice(0, 255), LABEL_COLORS[n % LABEL_COLORS.length]));
          settings.multiple = false;
        }
        if (target.kind === 'date') settings.withTime = columnHasTime(csv, index, target.date_format ?? 'iso');
        position += 1;
        await saveRecord(scope, collections.attribute, id, { id, board_id: job.board_id, folder_id: job.board_id, name: target.name, kind: target.kind, position, settings, row_version: 1 });
        columns[index] = { id, kind: target.kind, format: target.date_format ?? 'iso', settings, name: target.name, ...optionMap(target.kind, settings) };
      } else if (target.to === 'existing') {
        const attribute = existing.get(target.attribute_id);
        if (!attribute || attribute.board_id !== job.board_id) throw new ApiError(422, `column ${index + 1}: there is no attribute ${target.attribute_id} on this board`);
        const kind = String(attribute.kind);
        if (!IMPORTABLE_EXISTING.includes(kind)) throw new ApiError(422, `column ${index + 1}: a ${kind} attribute cannot be filled from a CSV`);
        if (kind === 'primary') continue; // the primary attribute is the item's name; the route maps it to 'name'
        const settings = (attribute.settings ?? {}) as Record<string, unknown>;
        columns[index] = { id: attribute.id as string, kind, format: target.date_format ?? 'iso', settings, name: String(attribute.name), ...optionMap(kind, settings) };
      }
    }
    await scope.finish();
    await scope.flushWrites();
    const position0 = await lastItemPosition(trx, job, input.folder_id);
    report({ phase: 'writing', done: 0, total: csv.rows.length, stateData: { prepared: true, columns, next: 0, position: position0, created: 0, skipped: 0 } satisfies ImportState });
    return scope.events;
  });
  await publishEvents(run, events);
}

const LABEL_COLORS = ['#E2E4F0', '#FDE2E1', '#FFF1C2', '#D8F5E1', '#D9ECFF', '#EBDDFB', '#FFE0F0', '#DDF4F4'];

function optionMap(kind: string, settings: Record<string, unknown>): { options?: Record<string, string> } {
  if (kind !== 'label' && kind !== 'status') return {};
  const options = Array.isArray(settings.options) ? (settings.options as { id: string; name: string }[]) : [];
  return { options: Object.fromEntries(options.map((o) => [o.name.trim().toLocaleLowerCase(), o.id])) };
}

/** A label column's options: its distinct cells in first-seen order (rows the import skips do not count). */
function distinctCells(csv: ParsedCsv, index: number): string[] {
  const names: string[] = [];
  const taken = new Set<string>();
  for (const row of csv.rows) {
    if (row.length !== csv.header.length) continue;
    const cell = (row[index] ?? '').trim();
    if (cell && !taken.has(cell.toLocaleLowerCase())) {
      taken.add(cell.toLocaleLowerCase());
      names.push(cell);
      if (names.length >= Math.max(LABEL_MAX_OPTIONS, 200)) break;
    }
  }
  return names;
}

function columnHasTime(csv: ParsedCsv, index: number, format: DateFormat): boolean {
  for (const row of csv.rows.slice(0, 1000)) {
    const value = cellValue('date', row[index] ?? '', format);
    if (value.ok && typeof value.value === 'string' && value.value.includes('T')) return true;
  }
  return false;
}

/** One batch of rows → items and values, with the cursor and the progress, in one transaction. */
async function writeBatch(run: BoardJobRun): Promise<'more' | 'done'> {
  const { job } = run;
  const input = inputOf(job);
  const state = stateOf(job);
  const csv = await parsed(run);
  const from = state.next ?? 0;
  // PostgreSQL (its pool sends COPY) or the embedded database.
  const embedded = !copyCapable(run.ctx.db);
  const size = embedded ? (batchSizes.get(job.id) ?? csvImportTuning.firstBatch) : csvImportTuning.postgresBatch;
  const to = Math.min(from + size, csv.rows.length);
  const nameColumn = input.columns.findIndex((c) => c.to === 'name');
  const width = csv.header.length;
  const firstRow = input.header ? 2 : 1;
  const prepared = Object.entries(state.columns ?? {}).map(([index, column]) => ({ index: Number(index), column }));

  let began = 0;
  await run.commit(async (trx, report) => {
    began = performance.now();
    const scope = await openBatchScope(run, trx, input.folder_id);
    const now = scope.now;
    const stamp = now.toISOString();
    const writes: LoggedWrite[] = [];
    const problems: BoardJobProblem[] = [];
    let created = state.created ?? 0;
    let skipped = state.skipped ?? 0;
    // Items get their `item.created` event (hooks, automations and the activity log see every
    // imported item); their values are part of that creation and get none: a million value events
    // would cost as much as the import itself (decision 0161).
    const add = (collection: string, record: WireRecord) => writes.push(importedWrite(job, collection, record));

    for (let r = from; r < to; r++) {
      const row = csv.rows[r]!;
      const line = r + firstRow;
      if (row.every((cell) => cell.trim() === '')) {
        skipped++;
        problems.push({ row: line, message: CsvImportMessages.emptyRow });
        continue;
      }
      if (row.length !== width) {
        skipped++;
        problems.push({ row: line, message: CsvImportMessages.fieldCount(row.length, width) });
        continue;
      }
      const itemId = `${job.id}i${r}`;
      const name = nameColumn >= 0 ? (row[nameColumn] ?? '').slice(0, 10_000) : '';
      add('item', { id: itemId, board_id: job.board_id, folder_id: input.folder_id, name, position: (state.position ?? 0) + r + 1, row_version: 1, team_id: job.team_id, created_at: stamp, updated_at: stamp, created_by: job.user_id, deleted_at: null });
      created++;
      for (const { index, column } of prepared) {
        const value = valueOf(column, row[index] ?? '');
        if (!value.ok) {
          problems.push({ row: line, column: column.name, message: value.message });
          continue;
        }
        if (isEmptyValue(value.value) && column.kind !== 'checkbox') continue;
        if (column.kind === 'checkbox' && value.value === false) continue;
        add('value', { id: valueIdFor(itemId, column.id), board_id: job.board_id, item_id: itemId, attribute_id: column.id, value: value.value as never, row_version: 1, team_id: job.team_id, created_at: stamp, updated_at: stamp });
      }
    }
    await writeImported(trx, job.team_id, now, writes, { copy: !embedded });
    const done = to >= csv.rows.length;
    report({
      phase: 'writing',
      done: to,
      problems,
      stateData: { ...state, next: to, created, skipped },
      ...(done ? { result: { board_id: job.board_id, folder_id: input.folder_id, items: created, skipped } } : {}),
    });
  });
  if (embedded) batchSizes.set(job.id, nextBatchSize(size, to - from, performance.now() - began));
  return to >= csv.rows.length ? 'done' : 'more';
}

/** A cell as the attribute's value (label/status names become option ids), checked as the save path checks it. */
function valueOf(column: PreparedColumn, text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const cell = cellValue(column.kind, text, column.format);
  if (!cell.ok || cell.value === null) return cell;
  let value = cell.value;
  if (column.kind === 'label' || column.kind === 'status') {
    const id = column.options?.[String(value).trim().toLocaleLowerCase()];
    if (!id) return { ok: false, message: 'choose one of the options' };
    value = column.kind === 'label' && (column.settings as { multiple?: boolean }).multiple ? [id] : id;
  }
  const checked = checkValue({ kind: column.kind, settings: column.settings } as AttributeLike, value);
  return checked.ok ? { ok: true, value: checked.value } : checked;
}

/** Removes every record the job wrote (ids start with the job id), with tombstones for the replicas. */
async function cleanup(run: BoardJobRun): Promise<void> {
  forgetPayload(run.job.id);
  batchSizes.delete(run.job.id);
  await removeUpload(run.ctx, inputOf(run.job).upload);
  await removeJobRecords(run, ['value', 'item', 'attribute']);
}

export const csvImportKind: BoardJobKind = {
  kind: CSV_IMPORT_KIND,
  async step(run) {
    if (!stateOf(run.job).prepared) {
      await prepare(run);
      return 'more';
    }
    const outcome = await writeBatch(run);
    if (outcome === 'done') {
      forgetPayload(run.job.id);
      batchSizes.delete(run.job.id);
      await removeUpload(run.ctx, inputOf(run.job).upload);
    }
    return outcome;
  },
  cleanup,
  summary(job) {
    const result = (job.result ?? {}) as { items?: number; skipped?: number };
    return `${result.items ?? 0} items imported from ${inputOf(job).title}${result.skipped ? `, ${result.skipped} rows skipped` : ''}`;
  },
};
