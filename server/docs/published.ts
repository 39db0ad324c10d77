import type { FastifyInstance, FastifyReply } from 'fastify';
import { itemSlug, parsePublished, publishedPath, publishProblem, type PublishFolder } from '../../schema/doc-publish';
import { kindSettingsOf } from '../../schema/views';
import type { AppContext } from '../context';
import { boardRecords, findRecord, type StoredRecord } from '../sync/store';
import { mergedState } from './compact';
import { docHtml } from './render-html';

/**
 * Published documents (issue #13, decision 0136): /p/e{workspaceId}-{viewId}[/{itemSlug}] (the
 * view's documents with the chosen one), /p/i… (one document alone), /p/f… (the list). Plain
 * server-rendered HTML: readable without JavaScript, the sync worker or a session. Every request
 * checks that the view is a published Docs view whose board and folders are public and that the
 * board has no password, so turning publishing off (or the board private) stops the pages at once.
 */

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

interface Published {
  teamId: number;
  view: StoredRecord;
  documents: StoredRecord[];
}

async function loadPublished(ctx: AppContext, segment: string): Promise<(Published & { kind: 'e' | 'f' | 'i' }) | null> {
  const parsed = parsePublished(segment);
  if (!parsed) return null;
  const view = await findRecord(ctx.db, 'folder_view', parsed.viewId);
  if (!view || view.team_id !== parsed.teamId || view.deleted_at || view.data.kind !== 'docs') return null;
  if (!kindSettingsOf('docs', view.data.settings).published || view.data.visibility === 'personal') return null;
  const folders = new Map((await boardRecords(ctx.db, view.team_id, view.board_id, 'folder')).map((f) => [f.id, f.data as unknown as PublishFolder]));
  if (publishProblem(folders, String(view.data.folder_id)) !== null) return null;
  const locked = await ctx.db.selectFrom('board_passwords').select('board_id').where('board_id', '=', view.board_id).executeTakeFirst();
  if (locked) return null;
  const documents = (await boardRecords(ctx.db, view.team_id, view.board_id, 'item'))
    .filter((i) => i.data.folder_id === view.data.folder_id)
    .sort((a, b) => Number(a.data.position ?? 0) - Number(b.data.position ?? 0) || a.id.localeCompare(b.id));
  return { kind: parsed.kind, teamId: view.team_id, view, documents };
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html dir="auto">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(title)}</title>
</head>
<body>
${body}
</body>
</html>
`;
}

const send = (reply: FastifyReply, status: number, html: string) =>
  reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);

/** The same page for "never published", "no longer published" and "no such document": nothing leaks. */
const notPublished = (reply: FastifyReply) => send(reply, 404, page('Not published', '<main><h1>This document is not published.</h1></main>'));

export function publishedRoutes(app: FastifyInstance, ctx: AppContext): void {
  const render = async (segment: string, slug: string | undefined, reply: FastifyReply) => {
    const published = await loadPublished(ctx, segment);
    if (!published) return notPublished(reply);
    const { kind, teamId, view, documents } = published;
    const link = (doc: StoredRecord) => publishedPath(kind === 'f' ? 'e' : kind, teamId, view.id, itemSlug({ id: doc.id, name: doc.data.name }));
    const nav = `<nav aria-label="${escape(String(view.data.name ?? ''))}"><ul>${documents
      .map((d) => `<li><a href="${escape(link(d))}">${escape(String(d.data.name ?? ''))}</a></li>`)
      .join('')}</ul></nav>`;
    if (kind === 'f') return send(reply, 200, page(String(view.data.name ?? ''), `<main><h1>${escape(String(view.data.name ?? ''))}</h1>${nav}</main>`));
    if (kind === 'i' && !slug) return notPublished(reply);
    const doc = slug ? documents.find((d) => slug === itemSlug({ id: d.id, name: d.data.name }) || slug === d.id || slug.endsWith(`-${d.id}`)) : documents[0];
    if (!doc) return notPublished(reply);
    const body = docHtml(await mergedState(ctx.db, teamId, doc.id));
    const article = `<article><h1>${escape(String(doc.data.name ?? ''))}</h1>${body}</article>`;
    return send(reply, 200, page(String(doc.data.name ?? ''), kind === 'e' ? `${nav}<main>${article}</main>` : `<main>${article}</main>`));
  };
  app.get<{ Params: { published: string } }>('/p/:published', (request, reply) => render(request.params.published, undefined, reply));
  app.get<{ Params: { published: string; slug: string } }>('/p/:published/:slug', (request, reply) => render(request.params.published, request.params.slug, reply));
}
