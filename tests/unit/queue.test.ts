import { describe, expect, it } from 'vitest';
import { completeTransactions, groupIntoCalls } from '../../sync-worker/queue';
import type { QueuedRequest } from '../../sync-worker/types';

let n = 0;
function req(over: Partial<QueuedRequest>): QueuedRequest {
  n += 1;
  return {
    key: `k${n}`, seq: n, teamId: 1, collection: 'item', id: `i${n}`, method: 'put', route: `items/i${n}`, channel: 'private-team.1.board.A',
    transaction: null, multiple: false, item: { id: `i${n}`, row_version: 1 }, old: null, created_at: 0, attempts: 0, error: null,
    reserved_at: null, batch_key: null, ...over,
  };
}

describe('groupIntoCalls: channel, then transaction batch', () => {
  let ids = 0;
  const newId = () => `b${++ids}`;

  it('a lone request goes as its own call with its own idempotency key', () => {
    const r = req({});
    expect(groupIntoCalls([r], 500, newId)).toEqual([{ key: r.key, batch: false, requests: [r] }]);
  });

  it('groups by channel and cuts groups into calls of at most batchSize', () => {
    const a = Array.from({ length: 5 }, () => req({ channel: 'A' }));
    const b = Array.from({ length: 2 }, () => req({ channel: 'B' }));
    const calls = groupIntoCalls([a[0]!, b[0]!, ...a.slice(1), b[1]!], 2, newId);
    expect(calls.map((c) => c.requests.map((r) => r.channel).join(''))).toEqual(['AA', 'AA', 'A', 'BB']);
    expect(calls.map((c) => c.batch)).toEqual([true, true, false, true]);
  });

  it('keeps a transaction whole in one call, apart from requests outside it', () => {
    const t = Array.from({ length: 3 }, () => req({ transaction: 'T' }));
    const loose = req({});
    const calls = groupIntoCalls([t[0]!, loose, t[1]!, t[2]!], 2, newId);
    expect(calls).toHaveLength(2);
    expect(calls.find((c) => c.requests.length === 3)!.requests.every((r) => r.transaction === 'T')).toBe(true);
  });

  it('separates teams (each team has its own batch endpoint)', () => {
    const calls = groupIntoCalls([req({ teamId: 1 }), req({ teamId: 2 }), req({ teamId: 1 })], 10, newId);
    expect(calls.map((c) => c.requests.map((r) => r.teamId))).toEqual([[1, 1], [2]]);
  });

  it('rebuilds a call that got no answer exactly, with the same key', () => {
    const x = req({ batch_key: 'lost-1', attempts: 1 });
    const y = req({ batch_key: 'lost-1', attempts: 1 });
    const z = req({});
    const calls = groupIntoCalls([x, z, y], 500, newId);
    expect(calls[0]).toEqual({ key: 'lost-1', batch: true, requests: [x, y] });
    expect(calls[1]!.requests).toEqual([z]);
  });
});

describe('completeTransactions: an action goes only whole (decision 0100)', () => {
  it('holds back every request of a transaction while one of them waits behind an earlier edit of its record', () => {
    const earlier = req({ id: 'x', collection: 'item' });
    const tx1 = req({ id: 'x', transaction: 'T' }); // behind `earlier`: not a head
    const tx2 = req({ id: 'y', transaction: 'T' });
    const loose = req({ id: 'z' });
    const queued = [earlier, tx1, tx2, loose];
    const heads = [earlier, tx2, loose];
    expect(completeTransactions(queued, heads)).toEqual([earlier, loose]);
    // Once the earlier edit is answered, the whole transaction is sendable, in one call.
    const ready = completeTransactions([tx1, tx2, loose], [tx1, tx2, loose]);
    expect(ready).toEqual([tx1, tx2, loose]);
    const calls = groupIntoCalls(ready, 1, () => 'call');
    expect(calls.find((c) => c.requests.includes(tx1))!.requests).toEqual([tx1, tx2]);
  });

  it('groups a transaction into one call even when its records are on different channels', () => {
    const a = req({ transaction: 'T', channel: 'private-team.1.board.A' });
    const b = req({ transaction: 'T', channel: 'private-team.1' });
    const calls = groupIntoCalls([a, b], 500, () => 'call');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.requests).toEqual([a, b]);
  });
});
