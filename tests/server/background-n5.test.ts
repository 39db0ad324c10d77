import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardJob } from '../../schema/board-jobs';
import { HIDDEN_REFERENCE } from '../../schema/csv-export';
import { pdfText } from '../helpers/pdf-text';
import { api, createTestServer, type TestServer } from '../helpers/test-server';
import { attribute, board, folder, item, teamWithRoles, value, type SignedIn, type TeamFixture } from './sync-fixtures';

/**
 * Security review finding N5 (../shared/reviews/security.md): the CSV and PDF exports printed the
 * names of hidden items and attributes. Its steps, as a test: M (full member, not in hidden folder
 * F) and A (admin, not in F) export open folder G by folder, by view and as PDF (folder and item);
 * neither F's attribute nor I1's name is in what they get, the reference is a neutral mark; the
 * owner's export still names both.
 */

describe('N5: exports read what the reader may read', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board({ name: 'B' });
  const f = folder(b.id, { name: 'F' });
  const g = folder(b.id, { name: 'G' });
  const related = attribute(b.id, { name: 'Related', kind: 'reference' });
  const secretAttribute = attribute(b.id, { name: 'SECRET attribute of F', kind: 'text', folder_id: f.id });
  const i1 = item(b.id, { folder_id: f.id, name: 'SECRET hidden item one (edited)' });
  const i2 = item(b.id, { folder_id: g.id, name: 'Open item two' });
  const viewId = 'vw' + b.id;

  async function put(route: string, body: Record<string, unknown>) {
    const res = await api(server.app, 'PUT', `/api/${t.teamId}/${route}/${encodeURIComponent(String(body.id))}`, { token: t.owner.token, body });
    expect(res.statusCode, `${route}: ${res.body}`).toBe(200);
  }
  async function csv(query: string, who: SignedIn): Promise<string> {
    const res = await api(server.app, 'GET', `/api/${t.teamId}/boards/${b.id}/exports/csv?${query}`, { token: who.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  }
  async function pdf(body: Record<string, unknown>, who: SignedIn): Promise<string> {
    const res = await api(server.app, 'POST', `/api/${t.teamId}/boards/${b.id}/exports/pdf`, { token: who.token, body });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data.id as string;
    const deadline = Date.now() + 120_000;
    let job: BoardJob;
    for (;;) {
      await server.ctx.jobs.drain();
      job = (await api(server.app, 'GET', `/api/me/board-jobs/${id}`, { token: who.token })).json().data;
      if (job.finished_at || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(job.state, job.error ?? '').toBe('done');
    const file = await api(server.app, 'GET', `/api/me/board-jobs/${id}/file`, { token: who.token });
    return (await pdfText(file.rawPayload)).text.replace(/\s+/g, ' ');
  }

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    await put('folders', b);
    await put('folders', { ...f, hidden: true, user_ids: [t.owner.user.id] });
    await put('folders', g);
    await put('attributes', related);
    await put('attributes', secretAttribute);
    await put('items', i1);
    await put('items', i2);
    // A normal link from an open item to a confidential one.
    await put('values', value(b.id, i2.id, related.id, [i1.id]));
    await put('folder-views', { id: viewId, board_id: b.id, folder_id: g.id, name: 'G table', kind: 'table', visibility: 'shared', row_version: 1 });
  }, 180_000);
  afterAll(() => server?.close());

  it('CSV by folder and by view: no hidden attribute in the header, the hidden reference a neutral mark', async () => {
    for (const who of [t.full, t.admin]) {
      for (const query of [`folder_id=${g.id}`, `view_id=${viewId}`]) {
        const text = await csv(query, who);
        expect(text, query).not.toContain('SECRET');
        expect(text).toContain('Open item two');
        expect(text).toContain(HIDDEN_REFERENCE);
      }
    }
    const owners = await csv(`folder_id=${g.id}`, t.owner);
    expect(owners).toContain('SECRET hidden item one (edited)');
    expect(owners).toContain('SECRET attribute of F');
  });

  it('PDF of the item and of the folder: the same', async () => {
    for (const body of [{ item_id: i2.id }, { folder_id: g.id }]) {
      const text = await pdf(body, t.full);
      expect(text, JSON.stringify(body)).not.toContain('SECRET');
      expect(text).toContain('Open item two');
    }
    expect(await pdf({ item_id: i2.id }, t.owner)).toContain('SECRET hidden item one');
  });
});
