import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context';
import { requireUserId } from '../auth/guard';
import { notFound, parseBody, unauthenticated, unauthorized } from '../http/errors';
import { translator, serverLocale, type Translate } from '../i18n/catalogs';
import { allowed, loadTeamAndRole } from '../sync/access';
import { teamIdParam } from '../sync/params';
import { readScope } from '../sync/read-scope';
import { ReadView } from '../sync/reads';
import type { Db, WireRecord } from '../sync/store';
import { fileStore, FILES_PREFIX, uploadKey } from '../files/storage';
import { builtinAttribute, type AttributeRef } from '../../schema/filters';
import { commentPlainText } from '../../schema/comment-html';
import { boardJobIdParam } from '../../schema/board-jobs';
import { readableValue } from '../../schema/csv-export';
import type { FilterOp } from '../../schema/views';
import { lookupFor, readShownView, safeFileName, type ShownAttribute } from './csv-export';
import type { PdfFrame } from './pdf/render';

/** The PDF writer and its fonts (pdfkit, fontkit, bidi-js: ~0.4 s to load) on the first export, not at every server start. */
const pdfRender = () => import('./pdf/render');
import { registerBoardJobKind, startBoardJob, type BoardJobKind, type BoardJobRun } from './runner';
import { loadBoardJob, saveProgress, toWire } from './store';

/**
 * PDF export as a board job (kind `export.pdf`, decision 0225): a view as shown (its filters,
 * sort and columns) or one item with its values and comments, drawn on the server by pdfkit in
 * the reader's language, kept in `board_job_files` for its user to download from the jobs tray:
 *   POST /api/{teamId}/boards/{boardId}/exports/pdf   {view_id | folder_id | item_id} → 202 {job}  (EXPORT)
 *   GET  /api/me/board-jobs/{jobId}/file              the PDF (the job's user only)
 */

export const PDF_EXPORT_KIND = 'export.pdf';
/** A made file is kept this long (the tray lists a week of jobs). */
const FILE_DAYS = 7;

export const pdfExportBody = z
  .strictObject({
    view_id: z.string().min(1).max(64).optional(),
    folder_id: z.string().min(1).max(64).optional(),
    item_id: z.string().min(1).max(64).optional(),
  })
  .refine((b) => [b.view_id, b.folder_id, b.item_id].filter((v) => v !== undefined).length === 1, 'name one of view_id, folder_id or item_id');

interface PdfInput {
  title: string;
  view_id?: string;
  folder_id?: string;
  item_id?: string;
}

/** The file a job made, if its user asks (null otherwise). */
async function jobFile(db: Db, jobId: string, userId: number) {
  const job = await loadBoardJob(db, jobId);
  if (!job || job.user_id !== userId) return null;
  return db.selectFrom('board_job_files').selectAll().where('job_id', '=', jobId).executeTakeFirst();
}

/** The workspace's logo bytes when it is one of our uploads (an outside address is not fetched). */
async function logoOf(ctx: AppContext, photoUrl: string | null): Promise<Buffer | null> {
  if (!photoUrl?.startsWith(FILES_PREFIX)) return null;
  const key = uploadKey(photoUrl.slice(FILES_PREFIX.length));
  if (!key) return null;
  try {
    const found = await fileStore(ctx).read(key);
    if (!found || found.size > 5 * 1024 * 1024) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of found.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } catch {
    return null;
  }
}

const opWords = (l10n: Translate): Record<FilterOp, string> => ({
  is: l10n('is'),
  'is-not': l10n('is not'),
  contains: l10n('contains'),
  'not-contains': l10n('does not contain'),
  empty: l10n('is empty'),
  'not-empty': l10n('is not empty'),
  gt: l10n('is greater than'),
  lt: l10n('is less than'),
  'any-of': l10n('is any of'),
  between: l10n('is between'),
});

function attributeName(l10n: Translate, attributes: ReadonlyMap<string, ShownAttribute>, id: string): { attribute: AttributeRef | undefined; name: string } {
  const attribute = attributes.get(id) ?? builtinAttribute(id);
  if (id === 'name') return { attribute, name: l10n('Name') };
  if (id === 'created_at') return { attribute, name: l10n('Created') };
  return { attribute, name: String(attribute?.name ?? id) };
}

/** Translates the readable values a CSV writes in English (a checkbox's Yes/No). */
function cellText(l10n: Translate, attribute: AttributeRef, text: string): string {
  if (attribute.kind !== 'checkbox') return text;
  return text === 'Yes' ? l10n('Yes') : l10n('No');
}

async function frameFor(ctx: AppContext, db: Db, run: BoardJobRun, title: string, subtitle: string[]) {
  const { job } = run;
  const [team, user] = await Promise.all([
    db.selectFrom('teams').select(['name', 'photo_url']).where('id', '=', job.team_id).executeTakeFirst(),
    db.selectFrom('users').select(['name', 'email', 'locale']).where('id', '=', job.user_id).executeTakeFirst(),
  ]);
  const locale = serverLocale(user?.locale);
  const l10n = translator(user?.locale);
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(ctx.now());
  const frame: PdfFrame = {
    workspace: team?.name ?? '',
    logo: await logoOf(ctx, team?.photo_url ?? null),
    title,
    subtitle: [...subtitle, l10n('Exported by {who} on {when} (UTC)', { who: user?.name || user?.email || '', when })],
    rtl: locale === 'ar',
    pageLabel: (n, total) => l10n('Page {n} of {total}', { n, total }),
  };
  return { frame, l10n, locale };
}

async function openView(ctx: AppContext, run: BoardJobRun): Promise<ReadView> {
  const found = await loadTeamAndRole(ctx.db, run.job.team_id, run.job.user_id);
  if (!found) throw new Error('The workspace is gone.');
  return ReadView.open(ctx.db, found.team, { id: run.job.user_id, role: found.role });
}

async function keepFile(run: BoardJobRun, fileName: string, data: Buffer, result: Record<string, unknown> & { items: number }): Promise<void> {
  await run.commit(async (trx, report) => {
    await trx.deleteFrom('board_job_files').where('job_id', '=', run.job.id).execute();
    await trx.insertInto('board_job_files').values({ job_id: run.job.id, file_name: fileName, content_type: 'application/pdf', data, created_at: run.ctx.now() }).execute();
    report({ phase: 'done', done: result.items, result: { ...result, file_name: fileName, bytes: data.length } });
  });
}

/** A view as a table. */
async function exportViewPdf(run: BoardJobRun, input: PdfInput): Promise<void> {
  const { ctx, job } = run;
  const view = await openView(ctx, run);
  const which = input.view_id ? { viewId: input.view_id } : { folderId: input.folder_id! };
  const chain = view.chain(job.board_id);
  if (!chain || !allowed(view.viewer, 'EXPORT', chain)) throw new Error('You may no longer export this board.');
  const shown = await readShownView(ctx.db, view, job.team_id, job.board_id, which);
  if (!shown) throw new Error('The view is gone or you may no longer see it.');
  await saveProgress(ctx.db, job.id, { phase: 'rendering', done: 0, total: shown.shown.length }, ctx.now());
  const board = await ctx.db.selectFrom('records').select('data').where('team_id', '=', job.team_id).where('collection', '=', 'folder').where('id', '=', job.board_id).executeTakeFirst();
  const boardName = String((board?.data as { name?: string } | undefined)?.name ?? '');

  const { frame, l10n } = await frameFor(ctx, ctx.db, run, shown.name, []);
  const ops = opWords(l10n);
  const subtitle: string[] = [l10n('{board} · items: {count}', { board: boardName, count: shown.shown.length })];
  const { filters, match, sort } = shown.settings;
  if (filters.length) {
    const said = filters.map((f) => {
      const { attribute, name } = attributeName(l10n, shown.attributes, f.attribute_id);
      const value = f.op === 'empty' || f.op === 'not-empty' || f.value === undefined || !attribute ? '' : ` “${cellText(l10n, attribute, shown.valueText(attribute, f.value))}”`;
      return `${name} ${ops[f.op]}${value}`;
    });
    subtitle.push(match === 'any' ? l10n('Filters (any may match): {filters}', { filters: said.join('; ') }) : l10n('Filters (all must match): {filters}', { filters: said.join('; ') }));
  }
  if (sort.length) {
    const said = sort.map((s) => `${attributeName(l10n, shown.attributes, s.attribute_id).name} ${s.direction === 'desc' ? l10n('descending') : l10n('ascending')}`);
    subtitle.push(l10n('Sorted by {sort}', { sort: said.join(', ') }));
  }
  frame.subtitle = [...subtitle, ...frame.subtitle];

  const { columnsThatFit, renderTablePdf } = await pdfRender();
  const max = columnsThatFit();
  const columns = shown.columns.slice(0, max);
  const leftOut = shown.columns.length - columns.length;
  const rows = shown.shown.map((item) => columns.map((a) => cellText(l10n, a, shown.cell(item, a))));
  const pdf = await renderTablePdf(frame, {
    header: columns.map((a) => (a.kind === 'primary' ? String(a.name || l10n('Name')) : String(a.name ?? ''))),
    rows,
    empty: l10n('This view shows no items.'),
    columnsLeftOut: leftOut > 0 ? l10n('Columns left out (they do not fit across the page): {count}. The CSV export has them all.', { count: leftOut }) : undefined,
    onRows: async (drawn) => {
      await saveProgress(ctx.db, job.id, { done: drawn }, ctx.now());
    },
  });
  await keepFile(run, `${safeFileName(shown.name)}.pdf`, pdf, { board_id: job.board_id, items: rows.length });
}

/** One item with its values and comments. */
async function exportItemPdf(run: BoardJobRun, input: PdfInput): Promise<void> {
  const { ctx, job } = run;
  const view = await openView(ctx, run);
  const live = (collection: string) => ctx.db.selectFrom('records').select(['data']).where('team_id', '=', job.team_id).where('board_id', '=', job.board_id).where('collection', '=', collection).where('deleted_at', 'is', null);
  const itemRows = await live('item').where('id', '=', input.item_id!).execute();
  const [item] = await view.filter(ctx.db, 'item', itemRows.map((r) => r.data as WireRecord));
  if (!item) throw new Error('The item is gone or you may no longer see it.');
  const folderId = String(item.folder_id);
  const chain = view.chain(folderId);
  if (!chain || !allowed(view.viewer, 'EXPORT', chain)) throw new Error('You may no longer export this board.');
  await saveProgress(ctx.db, job.id, { phase: 'rendering', done: 0, total: 1 }, ctx.now());

  const [attributeRows, valueRows, commentRows, folderRows] = await Promise.all([
    live('attribute').execute(),
    live('value').where(({ ref }) => ref('data', '->>').key('item_id' as never), '=', item.id).execute(),
    live('comment').where(({ ref }) => ref('data', '->>').key('item_id' as never), '=', item.id).execute(),
    live('folder').execute(),
  ]);
  // The attributes of the item's folder and the folders above it.
  const folders = new Map(folderRows.map((r) => [String((r.data as WireRecord).id), r.data as WireRecord]));
  const above = new Set<string>();
  for (let id: string | null = folderId; id; id = (folders.get(id)?.parent_id as string | null) ?? null) above.add(id);
  const attributes = (await view.filter(ctx.db, 'attribute', attributeRows.map((r) => r.data as WireRecord)))
    .filter((a) => above.has(String(a.folder_id)) && !['button', 'time-tracking', 'custom-id', 'primary'].includes(String(a.kind)))
    .sort((a, b) => (Number(a.position) || 0) - (Number(b.position) || 0)) as unknown as (AttributeRef & WireRecord)[];
  const values = await view.filter(ctx.db, 'value', valueRows.map((r) => r.data as WireRecord));
  const byAttribute = new Map(values.map((v) => [String(v.attribute_id), v.value]));
  const comments = (await view.filter(ctx.db, 'comment', commentRows.map((r) => r.data as WireRecord))).sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)));
  const itemRecords = await live('item').execute();
  const lookup = await lookupFor(ctx.db, job.team_id, itemRecords.map((r) => ({ id: String((r.data as WireRecord).id), board_id: job.board_id, data: r.data }) as never), view);
  const authors = new Map((await ctx.db.selectFrom('users').select(['id', 'name', 'email']).where('id', 'in', [0, ...comments.map((c) => Number(c.created_by) || 0)]).execute()).map((u) => [u.id, u.name || u.email]));

  const boardName = String(folders.get(job.board_id)?.name ?? '');
  const folderName = String(folders.get(folderId)?.name ?? '');
  const { frame, l10n, locale } = await frameFor(ctx, ctx.db, run, String(item.name ?? ''), [folderName && folderName !== boardName ? `${boardName} › ${folderName}` : boardName]);
  const format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  const { renderItemPdf } = await pdfRender();
  const pdf = await renderItemPdf(frame, {
    fields: [
      ...attributes.map((a) => ({ name: String(a.name ?? ''), value: cellText(l10n, a, readableValue(a, byAttribute.get(a.id) ?? null, lookup)) })),
      { name: l10n('Created'), value: item.created_at ? format.format(new Date(String(item.created_at))) : '' },
    ],
    commentsHeading: l10n('Comments'),
    noComments: l10n('No comments yet.'),
    comments: comments.map((c) => ({
      author: authors.get(Number(c.created_by)) ?? l10n('Someone'),
      when: c.created_at ? format.format(new Date(String(c.created_at))) : '',
      text: commentPlainText(String((c.text as { html?: string } | undefined)?.html ?? '')),
    })),
  });
  await saveProgress(ctx.db, job.id, { done: 1 }, ctx.now());
  await keepFile(run, `${safeFileName(String(item.name || 'item'))}.pdf`, pdf, { board_id: job.board_id, folder_id: folderId, item_id: item.id, items: 1 });
}

export const pdfExportKind: BoardJobKind = {
  kind: PDF_EXPORT_KIND,
  async step(run) {
    const input = run.job.input as PdfInput;
    if (input.item_id) await exportItemPdf(run, input);
    else await exportViewPdf(run, input);
    // Files of this user's jobs older than a week go (the tray lists a week).
    const old = new Date(run.ctx.now().getTime() - FILE_DAYS * 24 * 3600_000);
    await run.ctx.db.deleteFrom('board_job_files').where('created_at', '<', old).execute();
    return 'done';
  },
  async cleanup(run) {
    await run.ctx.db.deleteFrom('board_job_files').where('job_id', '=', run.job.id).execute();
  },
  summary(job) {
    return `PDF of ${(job.input as PdfInput).title} is ready`;
  },
};

export function pdfExportRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerBoardJobKind(pdfExportKind);

  const docs = {
    summary: 'Starts a PDF export of a view as shown or of one item with its comments (a background job)',
    tag: 'board-jobs',
    body: pdfExportBody,
    description: 'One of `view_id` (the view with its filters, sort and columns), `folder_id` (the folder as its default table shows it) or `item_id` (the item, its values and comments). Needs EXPORT. Answers 202 with the job; when it is done, GET /api/me/board-jobs/{id}/file gives the PDF.',
  };
  app.post<{ Params: { teamId: string; boardId: string } }>('/api/:teamId/boards/:boardId/exports/pdf', { config: { docs } }, async (request, reply) => {
    const teamId = teamIdParam(request.params.teamId);
    const boardId = request.params.boardId;
    await requireUserId(ctx.db, request);
    const scope = await readScope(ctx, request, teamId, boardId);
    const chain = scope.view.chain(boardId);
    if (!chain || !allowed(scope.view.viewer, 'EXPORT', chain)) throw scope.user ? unauthorized() : unauthenticated();
    const body = parseBody(pdfExportBody, request.body);
    let title = '';
    if (body.item_id) {
      const row = await ctx.db.selectFrom('records').select('data').where('team_id', '=', teamId).where('board_id', '=', boardId).where('collection', '=', 'item').where('id', '=', body.item_id).where('deleted_at', 'is', null).executeTakeFirst();
      const [item] = row ? await scope.view.filter(ctx.db, 'item', [row.data as WireRecord]) : [];
      if (!item) throw notFound();
      const itemChain = scope.view.chain(String(item.folder_id));
      if (!itemChain || !allowed(scope.view.viewer, 'EXPORT', itemChain)) throw unauthorized();
      title = String(item.name || 'item');
    } else {
      const shown = await readShownView(ctx.db, scope.view, teamId, boardId, body.view_id ? { viewId: body.view_id } : { folderId: body.folder_id! });
      if (!shown) throw notFound();
      title = shown.name;
    }
    const input: PdfInput = { title, ...body };
    const job = await startBoardJob(ctx, { teamId, userId: scope.user!.id, boardId, kind: PDF_EXPORT_KIND, input: input as PdfInput & Record<string, unknown> });
    return reply.status(202).send({ data: toWire(job) });
  });

  app.get<{ Params: { jobId: string } }>('/api/me/board-jobs/:jobId/file', { config: { docs: { summary: 'The file a board job made (the PDF of an export), for the user who started it', tag: 'board-jobs' } } }, async (request, reply) => {
    const userId = await requireUserId(ctx.db, request);
    const id = parseBody(boardJobIdParam, request.params.jobId);
    const file = await jobFile(ctx.db, id, userId);
    if (!file) throw notFound();
    return reply
      .header('content-type', file.content_type)
      .header('content-disposition', `attachment; filename="export.pdf"; filename*=UTF-8''${encodeURIComponent(file.file_name)}`)
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(file.data));
  });
}
