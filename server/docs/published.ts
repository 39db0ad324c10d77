import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { itemSlug, parsePublished, publishedPath, publishProblem, slugNames, type PublishFolder } from '../../schema/doc-publish';
import { kindSettingsOf } from '../../schema/views';
import type { AppContext } from '../context';
import { escapeHtml as escape, htmlPage, sendPage, visitorOf, type Visitor } from '../http/html-page';
import { boardRecords, findRecord, type StoredRecord } from '../sync/store';
import { mergedState } from './compact';
import { docHtml } from './render-html';

/**
 * Published documents (issue #13, decisions 0136, 0210): /p/e{workspaceId}-{viewId}[/{itemSlug}]
 * (the view's documents with the chosen one), /p/i… (one document alone), /p/f… (the list). Plain
 * server-rendered HTML in the visitor's language: readable without JavaScript, the sync worker or
 * a session. Every request checks that the view is a shared Docs view, published as a whole (or,
 * for /p/i…, that this document is published on its own), whose board and folders are public and
 * whose board has no password, so turning publishing off (or the board private) stops the pages
 * at once.
 */

interface Published {
  kind: 'e' | 'f' | 'i';
  teamId: number;
  view: StoredRecord;
  /** The documents the visitor may read (all of the view's when it is published as a whole). */
  documents: StoredRecord[];
}

async function loadPublished(ctx: AppContext, segment: string, slug: string | undefined): Promise<Published | null> {
  const parsed = parsePublished(segment);
  if (!parsed) return null;
  const view = await findRecord(ctx.db, 'folder_view', parsed.viewId);
  if (!view || view.team_id !== parsed.teamId || view.deleted_at || view.data.kind !== 'docs' || view.data.visibility === 'personal') return null;
  const settings = kindSettingsOf('docs', view.data.settings);
  // One document published alone opens only at its own /p/i… address.
  const alone = !settings.published && parsed.kind === 'i' && settings.published_items.length > 0;
  if (!settings.published && !alone) return null;
  const folders = new Map((await boardRecords(ctx.db, view.team_id, view.board_id, 'folder')).map((f) => [f.id, f.data as unknown as PublishFolder]));
  if (publishProblem(folders, String(view.data.folder_id)) !== null) return null;
  const locked = await ctx.db.selectFrom('board_passwords').select('board_id').where('board_id', '=', view.board_id).executeTakeFirst();
  if (locked) return null;
  let documents = (await boardRecords(ctx.db, view.team_id, view.board_id, 'item'))
    .filter((i) => i.data.folder_id === view.data.folder_id && !i.deleted_at)
    .sort((a, b) => Number(a.data.position ?? 0) - Number(b.data.position ?? 0) || a.id.localeCompare(b.id));
  if (alone) {
    const chosen = new Set(settings.published_items);
    documents = documents.filter((d) => chosen.has(d.id) && slug !== undefined && slugNames(slug, { id: d.id, name: d.data.name }));
    if (documents.length === 0) return null;
  }
  return { kind: parsed.kind, teamId: view.team_id, view, documents };
}

/** The same page for "never published", "no longer published" and "no such document": nothing leaks. */
const notPublished = (reply: FastifyReply, visitor: Visitor) => {
  const title = visitor.l10n('This document is not published.');
  const text = visitor.l10n('The link may be mistyped, or its owner stopped sharing it.');
  return sendPage(reply, 404, htmlPage(visitor, visitor.l10n('Not published'), `<main data-testid="not-published"><h1>${escape(title)}</h1><p>${escape(text)}</p></main>`));
};

export function publishedRoutes(app: FastifyInstance, ctx: AppContext): void {
  const render = async (request: FastifyRequest, segment: string, slug: string | undefined, reply: FastifyReply) => {
    const visitor = visitorOf(request);
    const published = await loadPublished(ctx, segment, slug);
    if (!published) return notPublished(reply, visitor);
    const { kind, teamId, view, documents } = published;
    const name = (record: StoredRecord) => String(record.data.name ?? '');
    const link = (doc: StoredRecord) => publishedPath(kind === 'f' ? 'e' : kind, teamId, view.id, itemSlug({ id: doc.id, name: doc.data.name }));
    const nav = (current: StoredRecord | null) =>
      `<nav aria-label="${escape(name(view))}"><ul>${documents
        .map((d) => `<li><a href="${escape(link(d))}"${d === current ? ' aria-current="page"' : ''}>${escape(name(d))}</a></li>`)
        .join('')}</ul></nav>`;
    if (kind === 'f') return sendPage(reply, 200, htmlPage(visitor, name(view), `<main><h1>${escape(name(view))}</h1>${nav(null)}</main>`));
    if (kind === 'i' && !slug) return notPublished(reply, visitor);
    const doc = slug ? documents.find((d) => slugNames(slug, { id: d.id, name: d.data.name })) : documents[0];
    if (!doc) return notPublished(reply, visitor);
    const body = docHtml(await mergedState(ctx.db, teamId, doc.id));
    const article = `<article><h1>${escape(name(doc))}</h1>${body}</article>`;
    return sendPage(reply, 200, htmlPage(visitor, name(doc), kind === 'e' ? `<main class="docs">${nav(doc)}${article}</main>` : `<main>${article}</main>`));
  };
  app.get<{ Params: { published: string } }>('/p/:published', (request, reply) => render(request, request.params.published, undefined, reply));
  app.get<{ Params: { published: string; slug: string } }>('/p/:published/:slug', (request, reply) => render(request, request.params.published, request.params.slug, reply));
}
