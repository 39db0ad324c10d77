import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { nanoid } from 'nanoid';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, item, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { DOC_FRAGMENT } from '../../schema/doc-records';
import { itemSlug, PUBLISH_NEEDS_PUBLIC, publishedPath } from '../../schema/doc-publish';

/**
 * Published documents (decision 0136): a Docs view published over a public board serves its
 * documents as plain HTML to anyone; publishing needs the board and folders public; the pages stop
 * the moment publishing is off or the board goes private.
 */
describe('docs: published documents', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board({ name: 'Handbook' });
  const doc = item(b.id, { name: 'Release notes' });
  const view = { id: 'dv' + nanoid(10), board_id: b.id, folder_id: b.id, name: 'Handbook docs', kind: 'docs', visibility: 'shared', settings: {}, row_version: 1 };
  const put = (route: string, rec: { id: string; [k: string]: unknown }, token = t.owner.token) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token, body: rec });
  const version = async (collection: string, id: string) =>
    (await server.ctx.db.selectFrom('records').select('row_version').where('collection', '=', collection).where('id', '=', id).executeTakeFirstOrThrow()).row_version;
  const saveView = async (settings: Record<string, unknown>) => put('folder-views', { ...view, settings, row_version: (await version('folder_view', view.id)) + 1 });
  const setBoard = async (fields: Record<string, unknown>) => put('folders', { ...b, ...fields, row_version: (await version('folder', b.id)) + 1 });
  const get = (path: string) => api(server.app, 'GET', path);

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    expect((await put('folders', b)).statusCode).toBe(200);
    expect((await put('items', doc)).statusCode).toBe(200);
    expect((await put('folder-views', view)).statusCode).toBe(200);
    // The body: a heading, a paragraph with a bold word and a link, and text that looks like markup.
    const y = new Y.Doc();
    const heading = new Y.XmlElement('heading');
    heading.setAttribute('level', 1 as never);
    heading.insert(0, [new Y.XmlText('Version 2')]);
    const paragraph = new Y.XmlElement('paragraph');
    paragraph.insert(0, [new Y.XmlText()]);
    y.getXmlFragment(DOC_FRAGMENT).insert(0, [heading, paragraph]);
    // Formatted text is written once the paragraph is in the document (as the editor does).
    const text = paragraph.get(0) as Y.XmlText;
    text.insert(0, 'Now ');
    text.insert(text.length, 'faster', { bold: {} });
    text.insert(text.length, ' <script>alert(1)</script> ', { bold: null });
    text.insert(text.length, 'docs', { link: { href: 'https://example.org/docs' } });
    text.insert(text.length, ' bad', { link: { href: 'javascript:alert(1)' } });
    const update = { id: nanoid(), board_id: b.id, item_id: doc.id, update: Buffer.from(Y.encodeStateAsUpdate(y)).toString('base64'), row_version: 1 };
    expect((await put('doc-updates', update)).statusCode).toBe(200);
  });
  afterAll(() => server.close());

  it('refuses to publish while the board is not public, with the spec’s message', async () => {
    const res = await saveView({ published: true });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain(PUBLISH_NEEDS_PUBLIC);
    expect((await get(publishedPath('e', t.teamId, view.id))).statusCode).toBe(404);
  });

  it('serves the published document as HTML with its slug, readable without JavaScript, until publishing is off', async () => {
    expect((await setBoard({ is_public: true })).statusCode).toBe(200);
    expect((await saveView({ published: true })).statusCode).toBe(200);
    const slug = itemSlug(doc);
    expect(slug).toBe(`release-notes-${doc.id}`);

    const page = await get(publishedPath('e', t.teamId, view.id, slug));
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<h1>Release notes</h1>');
    expect(page.body).toContain('<h2>Version 2</h2>');
    expect(page.body).toContain('<strong>faster</strong>');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).toContain('<a href="https://example.org/docs" rel="noopener nofollow">docs</a>');
    expect(page.body).not.toContain('javascript:');
    expect(page.body).not.toMatch(/<script/i);
    // The view's address alone opens its first document; i… is the document alone; f… the list.
    expect((await get(publishedPath('e', t.teamId, view.id))).body).toContain('Version 2');
    const alone = await get(publishedPath('i', t.teamId, view.id, slug));
    expect(alone.statusCode).toBe(200);
    expect(alone.body).not.toContain('<nav');
    const list = await get(publishedPath('f', t.teamId, view.id));
    expect(list.body).toContain(`href="${publishedPath('e', t.teamId, view.id, slug)}"`);
    // Another workspace's number with this view's id is not it.
    expect((await get(publishedPath('e', t.teamId + 1000, view.id, slug))).statusCode).toBe(404);
    expect((await get(publishedPath('e', t.teamId, view.id, 'no-such-doc'))).statusCode).toBe(404);

    // Publishing off: the same address answers "not published" at once.
    expect((await saveView({ published: false })).statusCode).toBe(200);
    const off = await get(publishedPath('e', t.teamId, view.id, slug));
    expect(off.statusCode).toBe(404);
    expect(off.body).not.toContain('Version 2');

    // On again, then the board made private: the pages stop too.
    expect((await saveView({ published: true })).statusCode).toBe(200);
    expect((await get(publishedPath('i', t.teamId, view.id, slug))).statusCode).toBe(200);
    expect((await setBoard({ is_public: false })).statusCode).toBe(200);
    expect((await get(publishedPath('i', t.teamId, view.id, slug))).statusCode).toBe(404);
  });
  it('publishes one document alone (its /p/i… page only), with the same rule, stopping the moment it is unpublished', async () => {
    const other = item(b.id, { name: 'Draft' });
    expect((await put('items', other)).statusCode).toBe(200);
    const slug = itemSlug(doc);
    // The board is private (the test before left it so): publishing a document is refused too.
    const refused = await saveView({ published: false, published_items: [doc.id] });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain(PUBLISH_NEEDS_PUBLIC);
    expect((await setBoard({ is_public: true })).statusCode).toBe(200);
    expect((await saveView({ published: false, published_items: [doc.id] })).statusCode).toBe(200);

    const alone = await get(publishedPath('i', t.teamId, view.id, slug));
    expect(alone.statusCode).toBe(200);
    expect(alone.body).toContain('<h2>Version 2</h2>');
    expect(alone.body).not.toContain('Draft');
    // Only that page: not the view's pages, not another document of the view.
    expect((await get(publishedPath('e', t.teamId, view.id, slug))).statusCode).toBe(404);
    expect((await get(publishedPath('e', t.teamId, view.id))).statusCode).toBe(404);
    expect((await get(publishedPath('f', t.teamId, view.id))).statusCode).toBe(404);
    expect((await get(publishedPath('i', t.teamId, view.id, itemSlug(other)))).statusCode).toBe(404);
    // A renamed document's old slug still opens it (its id ends the slug).
    expect((await get(publishedPath('i', t.teamId, view.id, `old-name-${doc.id}`))).statusCode).toBe(200);

    // Unpublished: the page stops at once.
    expect((await saveView({ published: false, published_items: [] })).statusCode).toBe(200);
    const off = await get(publishedPath('i', t.teamId, view.id, slug));
    expect(off.statusCode).toBe(404);
    expect(off.body).not.toContain('Version 2');
  });

  it('answers "not published" in the visitor’s language', async () => {
    const de = await api(server.app, 'GET', publishedPath('e', t.teamId, view.id), { headers: { 'accept-language': 'de-CH, en;q=0.5' } });
    expect(de.statusCode).toBe(404);
    expect(de.body).toContain('<html lang="de" dir="ltr">');
    expect(de.body).toContain('Dieses Dokument ist nicht veröffentlicht.');
    const ar = await api(server.app, 'GET', '/p/x1-2?lang=ar');
    expect(ar.body).toContain('<html lang="ar" dir="rtl">');
    expect(ar.body).toContain('هذا المستند غير منشور.');
    expect((await get('/p/x1-2')).body).toContain('This document is not published.');
  });
});
