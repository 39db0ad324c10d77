import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALIGN_CHANGES } from '../../server/sync/changes';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, folder, item, teamWithRoles, type SignedIn, type TeamFixture } from './sync-fixtures';

/**
 * Readers far behind read their first page from the start of their block of change numbers, one
 * read for every cursor in the block (server/sync/changes.ts ALIGN_CHANGES, decision 0285). Each
 * reader must still get exactly what changed after its own cursor — nothing it already has, no gap
 * — and only what it may read (decision 0090), whatever cursor in the block it comes with and
 * whoever read the block first.
 */
describe('/changes: readers far behind share a page read from their block, each answered from its own cursor', () => {
  let server: TestServer;
  let t: TeamFixture;
  const b = board({ name: 'Aligned pages' });
  const hidden = folder(b.id, { name: 'Hidden', hidden: true });
  /** record id → the change number of its (only) change, from the change log. */
  const seqOf = new Map<string, number>();
  const hiddenItems = new Set<string>();
  const items = new Set<string>();
  let blockStart = 0;
  let horizon = 0;

  beforeAll(async () => {
    server = await createTestServer();
    t = await teamWithRoles(server.ctx);
    const start = (await api(server.app, 'GET', `/api/${t.teamId}/changes?after=0`, { token: t.owner.token })).json().cursor as number;
    Object.assign(hidden, { user_ids: [t.owner.user.id] });
    for (const body of [b, hidden]) expect((await api(server.app, 'PUT', `/api/${t.teamId}/folders/${body.id}`, { token: t.owner.token, body })).statusCode).toBe(200);
    // Three blocks' worth of changes, one item each, every tenth in the folder only the owner sees.
    const total = 3 * ALIGN_CHANGES;
    for (let written = 0; written < total; written += 500) {
      const requests = Array.from({ length: Math.min(500, total - written) }, (_, n) => {
        const inHidden = (written + n) % 10 === 0;
        const body = item(b.id, inHidden ? { folder_id: hidden.id, name: 'secret item' } : { name: 'open item' });
        if (inHidden) hiddenItems.add(body.id);
        items.add(body.id);
        return { method: 'put', route: `items/${body.id}`, payload: body };
      });
      const res = await api(server.app, 'POST', `/api/${t.teamId}/batch`, { token: t.owner.token, body: { transaction: null, requests } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const log = await server.ctx.db.selectFrom('change_log').select(['seq', 'record_id']).where('team_id', '=', t.teamId).where('seq', '>', String(start)).orderBy('seq').execute();
    for (const row of log) seqOf.set(row.record_id, Number(row.seq));
    // The items, the board, the folder, and what the board brings with it.
    expect(seqOf.size).toBeGreaterThanOrEqual(total + 2);
    horizon = (await api(server.app, 'GET', `/api/${t.teamId}/changes?after=${Math.max(...seqOf.values())}&board_id=${b.id}`, { token: t.owner.token })).json().cursor;
    // The first block that starts after the first item: before it, only items and nothing else.
    blockStart = Math.ceil(Math.min(...[...items].map((id) => seqOf.get(id)!)) / ALIGN_CHANGES) * ALIGN_CHANGES;
    expect(horizon - (blockStart + ALIGN_CHANGES - 1)).toBeGreaterThan(ALIGN_CHANGES);
  });
  afterAll(() => server?.close());

  /** Every page from a cursor until has_more is false: the ids in the order they came, and the first page. */
  async function catchUp(who: SignedIn, after: number) {
    const ids: string[] = [];
    let first: { data: { id: string }[]; cursor: number; has_more: boolean } | null = null;
    for (let cursor = after, guard = 0; guard < 20; guard += 1) {
      const res = await api(server.app, 'GET', `/api/${t.teamId}/changes?after=${cursor}&board_id=${b.id}`, { token: who.token });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json();
      first ??= page;
      ids.push(...(page.data as { id: string }[]).map((c) => c.id));
      expect(page.cursor).toBeGreaterThan(cursor);
      cursor = page.cursor;
      if (!page.has_more) return { ids, first: first! };
    }
    throw new Error('no last page');
  }

  /** What changed after the cursor that this reader may read, in change order. */
  const expected = (who: SignedIn, after: number) =>
    [...seqOf].filter(([id, seq]) => seq > after && (who === t.owner || (!hiddenItems.has(id) && id !== hidden.id))).map(([id]) => id);

  it('answers each cursor in a block exactly what changed after it, gap-free, whichever reader came first', async () => {
    // Near the head (not aligned): the change number before the last seven changes.
    const nearHead = [...seqOf.values()].sort((x, y) => x - y).at(-8)!;
    expect(horizon - nearHead).toBeLessThan(ALIGN_CHANGES);
    const cursors = [blockStart + 517, blockStart, blockStart + 1, blockStart + ALIGN_CHANGES - 1, blockStart + ALIGN_CHANGES, nearHead];
    // In parallel (one shared read while in flight) and again one after another (a kept page).
    for (const round of [0, 1]) {
      const answers = round === 0 ? await Promise.all(cursors.map((c) => catchUp(t.owner, c))) : [];
      if (round === 1) for (const c of cursors) answers.push(await catchUp(t.owner, c));
      cursors.forEach((c, n) => {
        const got = answers[n]!;
        expect(new Set(got.ids).size).toBe(got.ids.length);
        expect(got.ids).toEqual(expected(t.owner, c));
        // The first page starts right after the cursor: nothing the reader already had.
        expect(Math.min(...got.first.data.map((d) => seqOf.get(d.id)!))).toBeGreaterThan(c);
      });
    }
    // Near the head: the last seven changes and nothing else.
    expect((await catchUp(t.owner, nearHead)).ids).toHaveLength(7);
  });

  it('judges a shared block for each reader: restricted members get nothing of the hidden folder', async () => {
    const cursors = [blockStart + 3, blockStart + 400];
    const [owner, restricted, full] = await Promise.all([catchUp(t.owner, cursors[0]!), catchUp(t.restricted, cursors[0]!), catchUp(t.full, cursors[1]!)]);
    expect(owner.ids).toEqual(expected(t.owner, cursors[0]!));
    expect(owner.ids.some((id) => hiddenItems.has(id))).toBe(true);
    expect(restricted.ids).toEqual(expected(t.restricted, cursors[0]!));
    expect(full.ids).toEqual(expected(t.full, cursors[1]!));
    for (const other of [restricted, full]) expect(other.ids.some((id) => hiddenItems.has(id))).toBe(false);
  });
});
