import { describe, expect, it } from 'vitest';
import { buildUnsyncedExport, parseUnsyncedExport, UnsyncedFileError, withoutSecrets } from '../../sync-worker/unsynced-export';
import type { QueuedRequest } from '../../sync-worker/types';

/** The "Download unsynced changes" file (issue #30 part 7): no secret-named field survives; a bad file is refused naming its field. */
describe('the unsynced-changes file', () => {
  const request = (seq: number, item: Record<string, unknown>): QueuedRequest => ({
    key: `k${seq}`, seq, teamId: 1, collection: 'item', id: `i${seq}`, method: 'put', route: `items/i${seq}`, channel: 'c', transaction: null, multiple: false,
    item: { id: `i${seq}`, row_version: 1, ...item }, old: null, created_at: 0, attempts: 0, error: null, reserved_at: null, batch_key: null,
  });

  it('drops fields named like tokens, secrets or passwords at any depth, counts them, keeps the rest and sorts the queue', () => {
    const file = buildUnsyncedExport({
      userId: 7, database: 'cairn-7', schemaVersion: 5, schemaHash: 'h', serverId: null,
      queue: [request(2, { name: 'b', settings: { api_key: 'k-1', nested: [{ access_token: 'AT', keep: 1 }] } }), request(1, { name: 'a', webhook_secret: 's', password: 'p' })],
      drafts: [], conflicts: [], refused: [], records: [], now: Date.UTC(2026, 10, 29),
    });
    const text = JSON.stringify(file);
    for (const leaked of ['k-1', 'AT', '"s"', '"p"']) expect(text).not.toContain(leaked);
    expect(file.redacted).toBe(4);
    expect(file.queue.map((r) => r.seq)).toEqual([1, 2]);
    expect(file.queue[1]!.item).toMatchObject({ name: 'b', settings: { nested: [{ keep: 1 }] } });
    expect(file.exported_at).toBe('2026-11-29T00:00:00.000Z');
    // Ordinary fields that merely contain the words stay.
    expect(withoutSecrets({ tokenizer: 1, secretary: 2, password_hint_shown: 3 }, { n: 0 })).toEqual({ tokenizer: 1, secretary: 2, password_hint_shown: 3 });
  });

  it('refuses a file that is not one, or from a newer replica schema, naming the field', () => {
    const good = buildUnsyncedExport({ userId: 7, database: 'cairn-7', schemaVersion: 5, schemaHash: 'h', serverId: null, queue: [], drafts: [], conflicts: [], refused: [], records: [], now: 0 });
    expect(parseUnsyncedExport(JSON.stringify(good), 5).user_id).toBe(7);
    expect(() => parseUnsyncedExport('{', 5)).toThrow(UnsyncedFileError);
    expect(() => parseUnsyncedExport(JSON.stringify({ ...good, format: 'x' }), 5)).toThrow(/format/);
    expect(() => parseUnsyncedExport(JSON.stringify(good), 4)).toThrow(/replica.schema_version: 5 is newer/);
    expect(() => parseUnsyncedExport(JSON.stringify({ ...good, queue: null }), 5)).toThrow(/queue/);
    expect(() => parseUnsyncedExport(JSON.stringify({ ...good, user_id: '7' }), 5)).toThrow(/user_id/);
  });
});
