import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { nanoid } from 'nanoid';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, item, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { compactDoc } from '../../server/docs/compact';
import { docHtml } from '../../server/docs/render-html';
import { sweepUploads } from '../../server/files/sweep';
import { fileStore } from '../../server/files/storage';
import { DOC_FRAGMENT } from '../../schema/doc-records';
import { DOC_NODE, docFileReferences, isDocImageSrc } from '../../schema/doc-nodes';

/**
 * What a document holds beyond text (decisions 0215–0217): images uploaded as attachments of the
 * item stay on the server while a document shows them (the upload sweep reads the update record's
 * `files`, which the server fills from the update's bytes), and published pages draw tables,
 * only attachment images, and embeds that never name an item the reader may not read.
 */

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 3)]);

/** A paragraph of text, as the editor writes it. */
function paragraph(text: string): Y.XmlElement {
  const p = new Y.XmlElement('paragraph');
  p.insert(0, [new Y.XmlText(text)]);
  return p;
}

function element(name: string, attrs: Record<string, string> = {}, children: (Y.XmlElement | Y.XmlText)[] = []): Y.XmlElement {
  const e = new Y.XmlElement(name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (children.length) e.insert(0, children);
  return e;
}

describe('docs: images from attachments, tables and embeds', () => {
  let server: TestServer;
  let t: TeamFixture;
  const boardA = board({ name: 'Handbook' });
  const put = (route: string, rec: { id: string; [k: string]: unknown }, token: string) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token, body: rec });

  function upload(itemId: string, data: Buffer, token: string) {
    const boundary = '----cairndoc' + Math.random().toString(16).slice(2);
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="chart.png"\r\nContent-Type: image/png\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return server.app.inject({ method: 'POST', url: `/api/${t.teamId}/attachments?item_id=${itemId}`, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: `Bearer ${token}` } });
  }
  const onDisk = async (url: string) => (await fileStore(server.ctx).stat(url.slice('/api/files/'.length))) !== null;
  const updatesOn = async (itemId: string) => (await api(server.app, 'GET', `/api/${t.teamId}/doc-updates?board_id=${boardA.id}`, { token: t.owner.token })).json().data.filter((r: any) => r.item_id === itemId);

  beforeAll(async () => {
    server = await createTestServer();
    await fileStore(server.ctx).prepare();
    t = await teamWithRoles(server.ctx);
    expect((await put('folders', boardA, t.owner.token)).statusCode).toBe(200);
  });
  afterAll(() => server?.close());

  it('keeps an image the document shows through the sweep and compaction; an upload the document never used goes', async () => {
    const doc = item(boardA.id, { name: 'Release notes' });
    expect((await put('items', doc, t.owner.token)).statusCode).toBe(200);
    const shown = await upload(doc.id, png, t.full.token);
    expect(shown.statusCode, shown.body).toBe(200);
    const image = shown.json().data as { url: string; mime: string };
    expect(isDocImageSrc(image.url)).toBe(true);
    const unused = (await upload(doc.id, png, t.full.token)).json().data as { url: string };

    const ydoc = new Y.Doc();
    const fragment = ydoc.getXmlFragment(DOC_FRAGMENT);
    fragment.insert(0, [paragraph('Before the picture'), element(DOC_NODE.image, { src: image.url, alt: 'chart.png' })]);
    // The client's own `files` is not believed: the server lists what the bytes name.
    const first = { id: nanoid(), board_id: boardA.id, item_id: doc.id, update: b64(Y.encodeStateAsUpdate(ydoc)), files: [unused.url], row_version: 1 };
    const res = await put('doc-updates', first, t.full.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.files).toEqual([image.url]);
    // A second edit (text only) names no file.
    const sv = Y.encodeStateVector(ydoc);
    fragment.insert(0, [paragraph('Title')]);
    const second = { id: nanoid(), board_id: boardA.id, item_id: doc.id, update: b64(Y.encodeStateAsUpdate(ydoc, sv)), row_version: 1 };
    expect((await put('doc-updates', second, t.full.token)).json().data.files).toEqual([]);

    await sweepUploads(server.ctx, { graceMs: 0 });
    await sweepUploads(server.ctx, { graceMs: 0 });
    expect(await onDisk(image.url)).toBe(true);
    expect(await onDisk(unused.url)).toBe(false);

    // Compaction: one record remains, and it still names the image.
    expect(await compactDoc(server.ctx, { team_id: t.teamId, item_id: doc.id })).toBe(2);
    const after = await updatesOn(doc.id);
    expect(after).toHaveLength(1);
    expect(after[0].files).toEqual([image.url]);
    await sweepUploads(server.ctx, { graceMs: 0 });
    await sweepUploads(server.ctx, { graceMs: 0 });
    expect(await onDisk(image.url)).toBe(true);
    expect((await server.app.inject({ method: 'GET', url: image.url })).statusCode).toBe(200);
  });

  it('lists only attachment images as files (never another folder, an outside address or a script)', () => {
    const text = 'x /api/files/attachments/AbC_12-x.png y /api/files/avatars/abc.png /api/files/attachments/abc.svg https://evil.example/api/files/attachments/Zz9.webp /api/files/attachments/AbC_12-x.png';
    expect(docFileReferences(text)).toEqual(['/api/files/attachments/AbC_12-x.png', '/api/files/attachments/Zz9.webp']);
    expect(isDocImageSrc('/api/files/attachments/Zz9.webp')).toBe(true);
    for (const bad of ['https://evil.example/x.png', 'data:image/png;base64,AAAA', 'javascript:alert(1)', '/api/files/avatars/a.png', '/api/files/attachments/../x.png', '/api/files/attachments/a.png?x=1']) expect(isDocImageSrc(bad), bad).toBe(false);
  });

  it('renders tables, attachment images and embeds on published pages; an embed names only what the reader may read', () => {
    const ydoc = new Y.Doc();
    const cell = (name: string, text: string, attrs: Record<string, string> = {}) => element(name, attrs, [paragraph(text)]);
    const table = element(DOC_NODE.table, {}, [
      element(DOC_NODE.row, {}, [cell(DOC_NODE.header, 'Step'), cell(DOC_NODE.header, 'Owner <b>')]),
      element(DOC_NODE.row, {}, [cell(DOC_NODE.cell, 'Ship', { colspan: '2' })]),
    ]);
    const embedPara = (id: string) => {
      const p = new Y.XmlElement('paragraph');
      p.insert(0, [new Y.XmlText('See '), element(DOC_NODE.embed, { id })]);
      return p;
    };
    ydoc.getXmlFragment(DOC_FRAGMENT).insert(0, [
      table,
      element(DOC_NODE.image, { src: '/api/files/attachments/AbC_12-x.png', alt: 'A "chart"' }),
      element(DOC_NODE.image, { src: 'https://tracker.example/pixel.png', alt: 'pixel' }),
      embedPara('pubDoc1'),
      embedPara('secretItem'),
    ]);
    const state = Y.encodeStateAsUpdate(ydoc);
    const html = docHtml(state, { embed: (id) => (id === 'pubDoc1' ? { name: 'Public page', href: '/p/e1-v/public-page-pubDoc1' } : null), hiddenEmbedText: 'an item' });
    expect(html).toContain('<table class="doc-table"><tbody><tr><th><p>Step</p></th><th><p>Owner &lt;b&gt;</p></th></tr><tr><td colspan="2"><p>Ship</p></td></tr></tbody></table>');
    expect(html).toContain('<img src="/api/files/attachments/AbC_12-x.png" alt="A &quot;chart&quot;" loading="lazy">');
    expect(html).not.toContain('tracker.example');
    expect(html).toContain('<a class="embed" href="/p/e1-v/public-page-pubDoc1">Public page</a>');
    expect(html).toContain('<span class="embed">an item</span>');
    expect(html).not.toContain('secretItem');
    // Without a resolver no embed is named.
    const bare = docHtml(state);
    expect(bare).not.toContain('Public page');
    expect(bare.match(/<span class="embed">⧉<\/span>/g)).toHaveLength(2);
  });
});
