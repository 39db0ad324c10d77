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
import { CSV_IMPORT_MAX_BYTES, CSV_IMPORT_MAX_ROWS, CsvImportMessages, csvImportBody, type ColumnTarget } from '../../schema/csv-import';
import { cancelBoardJob, startBoardJob } from './runner';
import { loadBoardJob, toWire } from './store';
import { parseCsv } from './csv-parse';
import { CSV_IMPORT_KIND, IMPORTABLE_EXISTING, type CsvImportInput } from './csv-import';
import { exportView } from './csv-export';
import { translatedJob } from './texts';
import { placesOf } from './admission';
import { localeSettingOf, translator } from '../i18n/catalogs';

/**
 * Board jobs and CSV import/export (docs/api/board-jobs.md, decision 0160/0161):
 *   GET  /api/me/board-jobs                          the caller's jobs of the last 7 days, active first
 *   GET  /api/me/board-jobs/{jobId}                  one of them
 *   POST /api/me/board-jobs/{jobId}/cancel           asks it to stop; what it wrote is removed
 *   POST /api/{teamId}/boards/{boardId}/imports/csv  starts a CSV import (CREATE_ITEM; MANAGE_ATTRIBUTES for new attributes) → 202 {job}
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

  const importDocs = { summary: 'Starts a CSV import into one folder of the board (a background job)', tag: 'board-jobs', body: csvImportBody, description: `The CSV as text, its delimiter, whether it has a header row, and one target per column (skip, name, a new attribute of a kind, an existing attribute). At most ${CSV_IMPORT_MAX_ROWS} rows. Answers 202 with the job; follow it at GET /api/me/board-jobs/{id}.` };
  app.post<TeamBoard>('/api/:teamId/boards/:boardId/imports/csv', { bodyLimit: CSV_IMPORT_MAX_BYTES + 1024 * 1024, config: { docs: importDocs } }, async (request, reply) => {
    const teamId = teamIdParam(request.params.teamId);
    const boardId = request.params.boardId;
    const scope = await boardWith(ctx, request, teamId, boardId, 'CREATE_ITEM');
    const body = parseBody(csvImportBody, request.body);
    // The folder must be one of this board's that the caller sees ("select one folder").
    const folderChain = scope.view.chain(body.folder_id);
    if (!folderChain || !scope.view.canViewIn(body.folder_id, boardId) || !(await isFolderOf(ctx, teamId, boardId, body.folder_id))) throw validation([CsvImportMessages.selectOneFolder]);
    if (!allowed(scope.view.viewer, 'CREATE_ITEM', folderChain)) throw unauthorized();
    if (body.columns.some((c) => c.to === 'new') && !allowed(scope.view.viewer, 'MANAGE_ATTRIBUTES', folderChain)) throw unauthorized();
    const columns = await checkColumns(ctx, teamId, boardId, body.columns);
    const parsed = parseCsv(body.csv, { delimiter: body.delimiter, header: body.header });
    if (parsed.rows.length === 0) throw validation([CsvImportMessages.noRows]);
    if (parsed.rows.length > CSV_IMPORT_MAX_ROWS) throw validation([CsvImportMessages.rowLimit(CSV_IMPORT_MAX_ROWS)]);
    if (columns.length !== parsed.header.length) throw validation([`columns: the file has ${parsed.header.length} columns, ${columns.length} targets were given`]);
    const input: CsvImportInput & { title: string } = { title: body.file_name, folder_id: body.folder_id, delimiter: parsed.delimiter, header: body.header, columns };
    const row = await startBoardJob(ctx, { teamId, userId: scope.user!.id, boardId, kind: CSV_IMPORT_KIND, input: input as never, payload: body.csv, total: parsed.rows.length });
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
