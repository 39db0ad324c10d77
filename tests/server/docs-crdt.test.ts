import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { nanoid } from 'nanoid';
import { createTestServer, api, type TestServer } from '../helpers/test-server';
import { board, item, recordingBroadcaster, teamWithRoles, type TeamFixture } from './sync-fixtures';
import { COMPACT_WINDOW_MS, compactDoc, mergedState } from '../../server/docs/compact';
import { DOC_FRAGMENT } from '../../schema/doc-records';

/**
 * Document bodies are Yjs updates synced as create-only `doc_update` records (decision 0135):
 * two replicas that edit one document offline converge whatever order they sync in, through the
 * real server (PGlite, or PostgreSQL with TEST_DATABASE_URL); an update for a document the sender
 * may not edit, or that names another board, is refused and stores nothing.
 */

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** A client's copy of one document: a Y.Doc, the updates it made while offline, its /changes cursor. */
class Replica {
  readonly doc = new Y.Doc();
  pending: Uint8Array[] = [];
  cursor = 0;
  private applying = false;

  constructor(
    private readonly server: TestServer,
    private readonly teamId: number,
    private readonly token: string,
    readonly boardId: string,
    readonly itemId: string,
  ) {
    this.doc.on('update', (update: Uint8Array) => {
      if (!this.applying) this.pending.push(update);
    });
  }

  get text(): string {
    return this.doc.getXmlFragment(DOC_FRAGMENT).toString();
  }

  /** Types a paragraph at `index` (the editor's shape: paragraph > text). */
  type(index: number, words: string): void {
    const paragraph = new Y.XmlElement('paragraph');
    paragraph.insert(0, [new Y.XmlText(words)]);
    this.doc.getXmlFragment(DOC_FRAGMENT).insert(index, [paragraph]);
  }

  /** Appends to the first paragraph's text. */
  append(words: string): void {
    const text = (this.doc.getXmlFragment(DOC_FRAGMENT).get(0) as Y.XmlElement).get(0) as Y.XmlText;
    text.insert(text.length, words);
  }

  /** Sends what was typed offline as one update record, as the worker's queue does. */
  async push(): Promise<number> {
    if (this.pending.length === 0) return 200;
    const record = { id: nanoid(), board_id: this.boardId, item_id: this.itemId, update: b64(Y.mergeUpdates(this.pending)), row_version: 1 };
    const res = await api(this.server.app, 'PUT', `/api/${this.teamId}/doc-updates/${record.id}`, { token: this.token, body: record });
    if (res.statusCode === 200) this.pending = [];
    return res.statusCode;
  }

  /** Catches up through /changes and applies every update of this document. */
  async pull(): Promise<void> {
    const res = await api(this.server.app, 'GET', `/api/${this.teamId}/changes?after=${this.cursor}`, { token: this.token });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { data: { collection: string; op: string; record: Record<string, unknown> | null }[]; cursor: number };
    this.cursor = body.cursor;
    this.applying = true;
    try {
      for (const change of body.data) {
        if (change.collection !== 'doc_update' || change.op !== 'saved' || change.record?.item_id !== this.itemId) continue;
        Y.applyUpdate(this.doc, new Uint8Array(Buffer.from(String(change.record.update), 'base64')));
      }
    } finally {
      this.applying = false;
    }
  }
}

describe('docs: Yjs document bodies through the sync path', () => {
  let server: TestServer;
  let t: TeamFixture;
  const recorder = recordingBroadcaster();
  const boardA = board({ name: 'Docs' });
  const boardB = board({ name: 'Other' });
  const put = (route: string, rec: { id: string; [k: string]: unknown }, token: string) => api(server.app, 'PUT', `/api/${t.teamId}/${route}/${rec.id}`, { token, body: rec });

  beforeAll(async () => {
    server = await createTestServer({ broadcaster: recorder.broadcaster });
    t = await teamWithRoles(server.ctx);
    for (const b of [boardA, boardB]) expect((await put('folders', b, t.owner.token)).statusCode).toBe(200);
  });
  afterAll(() => server.close());

  async function twoReplicas() {
    const doc = item(boardA.id, { name: 'Spec' });
    expect((await put('items', doc, t.owner.token)).statusCode).toBe(200);
    const a = new Replica(server, t.teamId, t.owner.token, boardA.id, doc.id);
    const b = new Replica(server, t.teamId, t.full.token, boardA.id, doc.id);
    // A writes the first line online; B loads it.
    a.type(0, 'Hello');
    expect(await a.push()).toBe(200);
    await a.pull();
    await b.pull();
    expect(b.text).toBe('<paragraph>Hello</paragraph>');
    return { doc, a, b };
  }

  async function editOffline(a: Replica, b: Replica) {
    a.append(' from A');
    a.type(1, 'Second line by A');
    b.append(' and B');
    b.type(0, 'Title by B');
    expect(a.text).not.toBe(b.text);
  }

  for (const order of ['A then B', 'B then A'] as const) {
    it(`merges two offline edits of one document, synced ${order}`, async () => {
      const { doc, a, b } = await twoReplicas();
      await editOffline(a, b);
      const [first, second] = order === 'A then B' ? [a, b] : [b, a];
      // Neither is refused: each update is a new record, never a 409.
      expect(await first.push()).toBe(200);
      expect(await second.push()).toBe(200);
      await a.pull();
      await b.pull();
      expect(a.text).toBe(b.text);
      for (const words of ['Hello', ' from A', ' and B', 'Title by B', 'Second line by A']) expect(a.text).toContain(words);
      // The server's merged state is the same document.
      const server_ = new Y.Doc();
      Y.applyUpdate(server_, await mergedState(server.ctx.db, t.teamId, doc.id));
      expect(server_.getXmlFragment(DOC_FRAGMENT).toString()).toBe(a.text);
    });
  }

  it('compacts an item’s updates into one without changing the document; replicas follow through /changes', async () => {
    const { doc, a, b } = await twoReplicas();
    await editOffline(a, b);
    expect(await a.push()).toBe(200);
    expect(await b.push()).toBe(200);
    await a.pull();
    const before = a.text;
    const count = (await api(server.app, 'GET', `/api/${t.teamId}/doc-updates?board_id=${boardA.id}`, { token: t.owner.token })).json().data.filter((r: any) => r.item_id === doc.id).length;
    expect(count).toBe(3);
    expect(await compactDoc(server.ctx, { team_id: t.teamId, item_id: doc.id })).toBe(3);
    const after = (await api(server.app, 'GET', `/api/${t.teamId}/doc-updates?board_id=${boardA.id}`, { token: t.owner.token })).json().data.filter((r: any) => r.item_id === doc.id);
    expect(after).toHaveLength(1);
    // A fresh replica built from the compacted state reads the same document.
    const fresh = new Replica(server, t.teamId, t.admin.token, boardA.id, doc.id);
    await fresh.pull();
    expect(fresh.text).toBe(before);
    // B, which had everything, hears of the compaction and still holds the same text.
    await b.pull();
    expect(b.text).toBe(before);
    // The compaction job runs from the event consumer too (nothing left to merge: 0).
    expect(await compactDoc(server.ctx, { team_id: t.teamId, item_id: doc.id })).toBe(0);
  });

  it('compacts by itself: the docs consumer queues one compaction per item, which runs at the end of its window', async () => {
    const { doc, a, b } = await twoReplicas();
    await editOffline(a, b);
    expect(await a.push()).toBe(200);
    expect(await b.push()).toBe(200);
    await a.pull();
    const onDoc = async () => (await api(server.app, 'GET', `/api/${t.teamId}/doc-updates?board_id=${boardA.id}`, { token: t.owner.token })).json().data.filter((r: any) => r.item_id === doc.id);
    expect(await onDoc()).toHaveLength(3);
    // The consumer queues the job for the end of the item's window (later updates join it).
    await server.ctx.jobs.drain();
    server.advance(COMPACT_WINDOW_MS + 1000);
    await server.ctx.jobs.drain();
    expect(await onDoc()).toHaveLength(1);
    const fresh = new Replica(server, t.teamId, t.admin.token, boardA.id, doc.id);
    await fresh.pull();
    expect(fresh.text).toBe(a.text);
  });

  it('refuses an update for a document the sender may not edit, or naming another board, and stores nothing', async () => {
    const { doc, a } = await twoReplicas();
    const attacker = new Y.Doc();
    attacker.getXmlFragment(DOC_FRAGMENT).insert(0, [new Y.XmlElement('paragraph')]);
    const update = b64(Y.encodeStateAsUpdate(attacker));
    const rec = (fields: Record<string, unknown> = {}) => ({ id: nanoid(), board_id: boardA.id, item_id: doc.id, update, row_version: 1, ...fields });
    // A restricted member may edit only items they created; the owner's document is not theirs.
    expect((await put('doc-updates', rec(), t.restricted.token)).statusCode).toBe(403);
    // Someone outside the workspace.
    expect((await put('doc-updates', rec(), t.stranger.token)).statusCode).toBe(403);
    // The document named with another board's id (an update smuggled into board B's feed).
    const otherBoard = await put('doc-updates', rec({ board_id: boardB.id }), t.full.token);
    expect(otherBoard.statusCode).toBe(422);
    // Bytes that are not a Yjs update.
    expect((await put('doc-updates', rec({ update: b64(new Uint8Array([255, 255, 255, 1])) }), t.full.token)).statusCode).toBe(422);
    // An accepted update cannot be rewritten into another one, nor moved to another document.
    const ok = rec();
    expect((await put('doc-updates', ok, t.full.token)).statusCode).toBe(200);
    const other = item(boardA.id, { name: 'Other doc' });
    expect((await put('items', other, t.owner.token)).statusCode).toBe(200);
    expect((await put('doc-updates', { ...ok, item_id: other.id, row_version: 2 }, t.full.token)).statusCode).toBe(422);
    const stored = await server.ctx.db.selectFrom('records').select(['id']).where('collection', '=', 'doc_update').where('team_id', '=', t.teamId).execute();
    const ids = new Set(stored.map((r) => r.id));
    // Only the full member's accepted update and A's first line are on the document.
    const onDoc = (await api(server.app, 'GET', `/api/${t.teamId}/doc-updates?board_id=${boardA.id}`, { token: t.owner.token })).json().data.filter((r: any) => r.item_id === doc.id);
    expect(onDoc).toHaveLength(2);
    expect(onDoc.every((r: any) => ids.has(r.id))).toBe(true);
    expect(onDoc.some((r: any) => r.id === ok.id)).toBe(true);
    expect(a.text).toBe('<paragraph>Hello</paragraph>');
    // Nothing reached board B.
    expect(recorder.events.some((e) => e.channel.endsWith(`.board.${boardB.id}`) && e.data?.collection === 'doc_update')).toBe(false);
  });
});
