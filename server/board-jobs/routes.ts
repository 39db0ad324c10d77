import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { requireUserId } from '../auth/guard';
import { ApiError, notFound, parseBody, unauthenticated, unauthorized, validation } from '../http/errors';
import { teamIdParam } from '../sync/params';
import { readScope } from '../sync/read-scope';
import { allowed } from '../sync/access';
import { boardRecords } from '../sync/store';
import { findDuplicateAttribute } from '../../schema/attributes';
import { boardJobIdParam, BoardJobMessages } from '../../schema/board-jobs';
import { CSV_IMPORT_MAX_BYTES, CSV_IMPORT_MAX_ROWS, CsvImportMessages, csvImportBody, csvUploadOptions, type ColumnTarget, type CsvUploadOptions } from '../../schema/csv-import';
import { cancelBoardJob, startBoardJob } from './runner';
import { loadBoardJob, newBoardJobId, toWire } from './store';
import { parseCsvOffThread, rememberParsed } from './csv-parse';
import { CSV_IMPORT_KIND, IMPORTABLE_EXISTING, problemsOfParsed, type CsvImportInput } from './csv-import';
import { receiveUpload, removeUpload } from './csv-upload';
import { exportView } from './csv-export';
import { translatedJob } from './texts';
import { placesOf } from './admission';
import { localeSettingOf, translator } from '../i18n/catalogs';

/**
 * Board jobs and CSV import/export (docs/api/board-jobs.md, decision 0160/0161):
 *   GET  /api/me/board-jobs                          the caller's jobs of the last 7 days, active first
 *   GET  /api/me/board-jobs/{jobId}                  one of them
 *   POST /api/me/board-jobs/{jobId}/cancel           asks it to stop; what it wrote is removed
 *   POST /api/{teamId}/boards/{boardId}/imports/csv  starts a CSV import (CREATE_ITEM; MANAGE_ATTRIBUTES for new attributes) → 202 {job};
 *                                                    an upload (multipart: options, file) or the CSV as text in JSON
 *   GET  /api/{teamId}/boards/{boardId}/exports/csv?view_id=  the view as shown, as CSV (EXPORT)
 */

type TeamBoard = { Params: { teamId: string; boardId: string } };
type JobParams = { Params: { jobId: string } };
const exportQuery = z
  .strictObject({ view_id: z.string().min(1).max(64).optional(), folder_id: z.string().min(1).max(64).optional() })
  .refine((q) => (q.view_id === undefined) !== (q.folder_id === undefined), 'name a view_id or a folder_id');

/** Signed in, may view the board, and holds `permission` on it (401/403 before the body is read). */
async function boardWith(ctx: AppContext, request: FastifyRequest, teamId: number, boardId: string, permission: string) {
  await requireUserId(ctx.db, request);
  const scope = await readScope(ctx, request, teamId, boardId);
  const chain = scope.view.chain(boardId);
  if (!chain || !allowed(scope.view.viewer, permission, chain)) throw scope.user ? unauthorized() : unauthenticated();
  return scope;
}

export function boardJobRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/me/board-jobs', { config: { docs: { summary: 'Your background board jobs of the last 7 days (imports, duplicates, moves), unfinished first', tag: 'board-jobs' } } }, async (request) => {
    const userId = await requireUserId(ctx.db, request);
    const since = new Date(ctx.now().getTime() - 7 * 24 * 3600_000);
    const rows = await ctx.db.selectFrom('board_jobs').selectAll().where('user_id', '=', userId).where('created_at', '>=', since).orderBy('created_at', 'desc').limit(20).execute();
    // Problems and failure reasons in the reader's language (decision 0225).
    const l10n = translator(await localeSettingOf(ctx.db, userId));
    const places = await placesOf(ctx, rows);
    const jobs = rows.map((row) => withPlace(translatedJob(toWire(row), l10n), places));
    return { data: [...jobs.filter((j) => !j.finished_at), ...jobs.filter((j) => j.finished_at)] };
  });

  app.get<JobParams>('/api/me/board-jobs/:jobId', { config: { docs: { summary: 'One of your board jobs with its progress', tag: 'board-jobs' } } }, async (request) => {
    const userId = await requireUserId(ctx.db, request);
    const id = parseBody(boardJobIdParam, request.params.jobId);
    const row = await loadBoardJob(ctx.db, id);
    if (!row || row.user_id !== userId) throw notFound();
    return { data: withPlace(translatedJob(toWire(row), translator(await localeSettingOf(ctx.db, userId))), await placesOf(ctx, [row])) };
  });

  app.post<JobParams>('/api/me/board-jobs/:jobId/cancel', { config: { docs: { summary: 'Cancels one of your board jobs; what it wrote is removed', tag: 'board-jobs' } } }, async (request) => {
    const userId = await requireUserId(ctx.db, request);
    const id = parseBody(boardJobIdParam, request.params.jobId);
    const row = await loadBoardJob(ctx.db, id);
    if (!row || row.user_id !== userId) throw notFound();
    const cancelled = await cancelBoardJob(ctx, id);
    if (!cancelled && row.state !== 'cancelling') throw new ApiError(409, BoardJobMessages.notCancellable, 'conflict');
    return { data: toWire((await loadBoardJob(ctx.db, id))!) };
  });

  const importDocs = {
    summary: 'Starts a CSV import into one folder of the board (a background job)',
    tag: 'board-jobs',
    body: csvImportBody,
    description: `Two forms. The upload (what the app sends): multipart/form-data with the field \`options\` (JSON: board_id, folder_id, file_name, delimiter, header, columns, and optionally rows, the row count the app read, shown as the total until the file is read) first, then the field \`file\` (the CSV, UTF-8). The file is stored as it arrives and the answer comes at once; the job reads it as its first phase (\`parsing\`) and fails with the reason when it has no rows, more than ${CSV_IMPORT_MAX_ROWS} rows or another column count than the targets. The JSON form (this body, the CSV as text) is read before the answer and refused with 422 for those reasons. Answers 202 with the job; follow it at GET /api/me/board-jobs/{id}.`,
  };
  app.post<TeamBoard>('/api/:teamId/boards/:boardId/imports/csv', { bodyLimit: CSV_IMPORT_MAX_BYTES + 1024 * 1024, config: { docs: importDocs } }, async (request, reply) => {
    const teamId = teamIdParam(request.params.teamId);
    const boardId = request.params.boardId;
    const scope = await boardWith(ctx, request, teamId, boardId, 'CREATE_ITEM');
    if (request.isMultipart()) return reply.status(202).send({ data: toWire(await startUploadedImport(ctx, request, scope, teamId, boardId)) });
    const body = parseBody(csvImportBody, request.body);
    const columns = await checkTargets(ctx, scope, teamId, boardId, body);
    // Read in a worker thread: the answer waits for it, other requests do not (issue #31).
    const parsed = await parseCsvOffThread({ text: body.csv }, { delimiter: body.delimiter, header: body.header });
    const problems = problemsOfParsed(parsed, columns.length);
    if (problems.length) throw validation(problems);
    const id = newBoardJobId();
    rememberParsed(id, parsed);
    const input: CsvImportInput = { title: body.file_name, folder_id: body.folder_id, delimiter: parsed.delimiter, header: body.header, columns };
    const row = await startBoardJob(ctx, { id, teamId, userId: scope.user!.id, boardId, kind: CSV_IMPORT_KIND, input: input as never, payload: body.csv, total: parsed.rows.length });
    return reply.status(202).send({ data: toWire(row) });
  });

  const exportDocs = { summary: 'The view as shown, as CSV (UTF-8 with a byte order mark)', tag: 'board-jobs', query: exportQuery, description: 'Its filters, sort and columns (hidden ones left out), values as readable text. `folder_id` instead of `view_id`: the folder as its default table shows it. Needs EXPORT on the board.' };
  app.get<TeamBoard>('/api/:teamId/boards/:boardId/exports/csv', { config: { docs: exportDocs } }, async (request, reply) => {
    const teamId = teamIdParam(request.params.teamId);
    const boardId = request.params.boardId;
    const scope = await boardWith(ctx, request, teamId, boardId, 'EXPORT');
    const query = parseBody(exportQuery, request.query);
    const exported = await exportView(ctx.db, scope.view, teamId, boardId, query.view_id ? { viewId: query.view_id } : { folderId: query.folder_id! });
    if (!exported) throw notFound();
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="export.csv"; filename*=UTF-8''${encodeURIComponent(exported.fileName)}`)
      .header('x-rows', String(exported.rows))
      .send(Readable.from(exported.parts()));
  });
}

type Scope = Awaited<ReturnType<typeof boardWith>>;

/** The folder is one of this board's that the caller sees and may add items to; the columns are fit (checkColumns). */
async function checkTargets(ctx: AppContext, scope: Scope, teamId: number, boardId: string, body: { folder_id: string; columns: ColumnTarget[] }): Promise<ColumnTarget[]> {
  // The folder must be one of this board's that the caller sees ("select one folder").
  const folderChain = scope.view.chain(body.folder_id);
  if (!folderChain || !scope.view.canViewIn(body.folder_id, boardId) || !(await isFolderOf(ctx, teamId, boardId, body.folder_id))) throw validation([CsvImportMessages.selectOneFolder]);
  if (!allowed(scope.view.viewer, 'CREATE_ITEM', folderChain)) throw unauthorized();
  if (body.columns.some((c) => c.to === 'new') && !allowed(scope.view.viewer, 'MANAGE_ATTRIBUTES', folderChain)) throw unauthorized();
  return checkColumns(ctx, teamId, boardId, body.columns);
}

/**
 * The upload form: the options are checked before the file is read; the file is stored as it
 * arrives (csv-upload.ts) and the job reads it in its first phase, so the answer does not wait
 * for the parse (issue #31: 202 within 300 ms for a 40 MB file).
 */
async function startUploadedImport(ctx: AppContext, request: FastifyRequest, scope: Scope, teamId: number, boardId: string) {
  const id = newBoardJobId();
  let options: CsvUploadOptions | null = null;
  let columns: ColumnTarget[] = [];
  let stored: Awaited<ReturnType<typeof receiveUpload>> | null = null;
  try {
    for await (const part of request.parts({ limits: { fileSize: CSV_IMPORT_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024 * 1024 } })) {
      if (part.type === 'field') {
        if (part.fieldname !== 'options') continue;
        options = parseBody(csvUploadOptions, parseJson(String(part.value)));
        columns = await checkTargets(ctx, scope, teamId, boardId, options);
      } else {
        if (part.fieldname !== 'file' || stored) {
          part.file.resume();
          continue;
        }
        if (!options) throw validation(['options: send the options field before the file']);
        stored = await receiveUpload(ctx, id, part.file);
        if (part.file.truncated) throw tooLarge();
      }
    }
  } catch (error) {
    if ('file' in (stored ?? {})) await removeUpload(ctx, (stored as { file: string }).file);
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw validation(['file: send one file and the options']);
    if (error instanceof ApiError) throw error;
    throw new ApiError(400, 'The upload could not be read.', 'bad_request');
  }
  if (!options) throw validation(['options: send the import options as JSON in the field "options"']);
  if (!stored || stored.bytes === 0) {
    if (stored && 'file' in stored) await removeUpload(ctx, stored.file);
    throw validation([`file: ${CsvImportMessages.noRows}`]);
  }
  const input: CsvImportInput = { title: options.file_name, folder_id: options.folder_id, delimiter: options.delimiter, header: options.header, columns, ...('file' in stored ? { upload: stored.file } : {}) };
  try {
    return await startBoardJob(ctx, { id, teamId, userId: scope.user!.id, boardId, kind: CSV_IMPORT_KIND, input: input as never, payload: 'text' in stored ? stored.text : null, total: Math.min(options.rows ?? 0, CSV_IMPORT_MAX_ROWS), phase: 'parsing' });
  } catch (error) {
    if ('file' in stored) await removeUpload(ctx, stored.file);
    throw error;
  }
}

const tooLarge = () => new ApiError(413, CsvImportMessages.tooLarge(CSV_IMPORT_MAX_BYTES / 1024 / 1024), 'too_large');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw validation(['options: not JSON']);
  }
}

function withPlace<T extends { id: string }>(job: T, places: Map<string, number>): T & { place?: number } {
  const place = places.get(job.id);
  return place === undefined ? job : { ...job, place };
}

async function isFolderOf(ctx: AppContext, teamId: number, boardId: string, folderId: string): Promise<boolean> {
  const row = await ctx.db.selectFrom('records').select('board_id').where('collection', '=', 'folder').where('id', '=', folderId).where('team_id', '=', teamId).where('deleted_at', 'is', null).executeTakeFirst();
  return row?.board_id === boardId;
}

/** One name column at most; existing attributes on this board and of a kind a CSV can fill; no new one clashing with an existing name and kind. */
async function checkColumns(ctx: AppContext, teamId: number, boardId: string, columns: ColumnTarget[]): Promise<ColumnTarget[]> {
  const attributes = (await boardRecords(ctx.db, teamId, boardId, 'attribute')).filter((r) => !r.deleted_at).map((r) => ({ ...(r.data as object), id: r.id, board_id: r.board_id }) as { id: string; kind: string; name: string; board_id: string });
  const byId = new Map(attributes.map((a) => [a.id, a]));
  const problems: string[] = [];
  // The primary attribute is the item's name.
  const out = columns.map((c): ColumnTarget => (c.to === 'existing' && byId.get(c.attribute_id)?.kind === 'primary' ? { to: 'name' } : c));
  if (out.filter((c) => c.to === 'name').length > 1) problems.push(CsvImportMessages.oneName);
  const names = new Set<string>();
  out.forEach((c, i) => {
    if (c.to === 'existing') {
      const a = byId.get(c.attribute_id);
      if (!a) problems.push(`columns.${i}: there is no attribute ${c.attribute_id} on this board`);
      else if (!IMPORTABLE_EXISTING.includes(a.kind)) problems.push(`columns.${i}: a ${a.kind} attribute cannot be filled from a CSV`);
    }
    if (c.to === 'new') {
      const key = `${c.kind}:${c.name.trim().toLocaleLowerCase()}`;
      if (names.has(key) || findDuplicateAttribute({ kind: c.kind, name: c.name, board_id: boardId }, attributes)) problems.push(`columns.${i}: an attribute with the same name and type already exists`);
      names.add(key);
    }
  });
  if (problems.length) throw validation(problems);
  return out;
}
