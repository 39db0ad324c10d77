import { describe, expect, it } from 'vitest';
import {
  afterApplied,
  afterConflict,
  afterRejected,
  applyRemoteChange,
  isNewer,
  newerOf,
  outcomeOf,
  planDelete,
  planSave,
  recordsDiffer,
  requestChanged,
} from '../../sync-worker/merge';
import type { QueuedRequest, SyncRecord } from '../../sync-worker/types';
import { SERVER_STAMPED_FIELDS } from '../../schema/server-stamps';

const rec = (fields: Partial<SyncRecord> & { row_version: number }): SyncRecord => ({ id: 'a', board_id: 'b', name: 'x', ...fields });

function request(over: Partial<QueuedRequest>): QueuedRequest {
  return {
    key: 'k1', seq: 1, teamId: 1, collection: 'item', id: 'a', method: 'put', route: 'items/a', channel: 'c',
    transaction: null, multiple: false, item: null, old: null, created_at: 0, attempts: 0, error: null,
    reserved_at: null, batch_key: null, ...over,
  };
}

describe('newer row_version wins', () => {
  it('a higher row_version replaces, equal or lower does not', () => {
    expect(isNewer(rec({ row_version: 3 }), rec({ row_version: 2 }))).toBe(true);
    expect(isNewer(rec({ row_version: 2 }), rec({ row_version: 2 }))).toBe(false);
    expect(isNewer(rec({ row_version: 1 }), rec({ row_version: 2 }))).toBe(false);
    expect(isNewer(rec({ row_version: 0 }), null)).toBe(true);
    expect(newerOf(rec({ row_version: 2, name: 'local' }), rec({ row_version: 2, name: 'remote' })).name).toBe('local');
    expect(newerOf(rec({ row_version: 2, name: 'local' }), rec({ row_version: 5, name: 'remote' })).name).toBe('remote');
  });
});

describe('request counts as changed (shell.md §3)', () => {
  it('absent item with an old copy is a change (a delete)', () => {
    expect(requestChanged({ item: null, old: rec({ row_version: 1 }) })).toBe(true);
    expect(requestChanged({ item: null, old: null })).toBe(false);
  });
  it('no old copy is a change (a create)', () => {
    expect(requestChanged({ item: rec({ row_version: 1 }), old: null })).toBe(true);
  });
  it('differences in updated_at / created_at do not count, other fields do', () => {
    const old = rec({ row_version: 1, updated_at: '2026-01-01T00:00:00Z', created_at: '2026-01-01T00:00:00Z' });
    expect(requestChanged({ item: { ...old, row_version: 2, updated_at: '2026-02-01T00:00:00Z', created_at: 'x' }, old })).toBe(false);
    expect(requestChanged({ item: { ...old, name: 'y' }, old })).toBe(true);
    expect(recordsDiffer({ ...old, settings: { a: [1, 2] } }, { ...old, settings: { a: [1, 2] } })).toBe(false);
    expect(recordsDiffer({ ...old, settings: { a: [1, 2] } }, { ...old, settings: { a: [2, 1] } })).toBe(true);
  });
  it('compares as the field merge does (one sameValue, schema/same-value.ts): null, undefined and a missing field are the same', () => {
    const old = rec({ row_version: 1 });
    expect(recordsDiffer({ ...old, parent_id: null, settings: { a: undefined, b: 1 } }, { ...old, settings: { b: 1 } })).toBe(false);
    expect(recordsDiffer({ ...old, parent_id: null }, { ...old, parent_id: 'x' })).toBe(true);
  });
  it('ignores every field the server stamps (schema/server-stamps.ts), and only those', () => {
    const old = rec({ row_version: 1, updated_at: 'a', created_at: 'a', updated_by: 1 });
    const stamped = Object.fromEntries(SERVER_STAMPED_FIELDS.map((f) => [f, 'changed']));
    expect(recordsDiffer({ ...old, ...stamped }, old)).toBe(false);
    expect(recordsDiffer({ ...old, deleted_at: 'now' }, old)).toBe(true);
  });
});

describe('planSave', () => {
  it('a save raises row_version by one over the local copy', () => {
    const plan = planSave(rec({ row_version: 4 }), rec({ row_version: 4, name: 'new' }), null);
    expect(plan).toMatchObject({ kind: 'send', item: { row_version: 5, name: 'new' }, old: { row_version: 4 } });
  });
  it('a new record is first saved with row_version 1', () => {
    const plan = planSave(null, rec({ row_version: 0 }), null);
    expect(plan).toMatchObject({ kind: 'send', item: { row_version: 1 }, old: null });
  });
  it('an unchanged save is not sent', () => {
    expect(planSave(rec({ row_version: 4 }), rec({ row_version: 4, updated_at: 'later' }), null)).toEqual({ kind: 'unchanged' });
  });
  it('an edit merges into a queued request that never went out (same old, same version)', () => {
    const old = rec({ row_version: 2, name: 'orig' });
    const tail = request({ old, item: rec({ row_version: 3, name: 'one' }) });
    const plan = planSave(rec({ row_version: 3, name: 'one' }), rec({ row_version: 3, name: 'two' }), tail);
    expect(plan).toMatchObject({ kind: 'send', item: { row_version: 3, name: 'two' }, old, replaces: tail });
  });
  it('an edit back to the old copy drops the queued request', () => {
    const old = rec({ row_version: 2, name: 'orig' });
    const tail = request({ old, item: rec({ row_version: 3, name: 'one' }) });
    expect(planSave(rec({ row_version: 3, name: 'one' }), rec({ row_version: 3, name: 'orig' }), tail)).toEqual({ kind: 'revert', drop: tail, restore: old });
  });
  it('never merges into a request that already went out: chains a new version', () => {
    const tail = request({ old: rec({ row_version: 2 }), item: rec({ row_version: 3, name: 'one' }), attempts: 1 });
    expect(planSave(rec({ row_version: 3, name: 'one' }), rec({ row_version: 3, name: 'two' }), tail)).toMatchObject({
      kind: 'send', item: { row_version: 4, name: 'two' }, replaces: null,
    });
  });
});

describe('planDelete', () => {
  it('deleting a known record sends a delete carrying the old copy', () => {
    expect(planDelete(rec({ row_version: 3 }), null)).toMatchObject({ kind: 'send', old: { row_version: 3 }, replaces: null });
  });
  it('deleting nothing sends nothing', () => {
    expect(planDelete(null, null)).toEqual({ kind: 'unchanged' });
  });
  it('deleting a record whose create never went out just drops the create', () => {
    const tail = request({ old: null, item: rec({ row_version: 1 }) });
    expect(planDelete(rec({ row_version: 1 }), tail)).toEqual({ kind: 'revert', drop: tail, restore: null });
  });
});

describe('outcomeOf', () => {
  const put = request({ item: rec({ row_version: 3, name: 'mine' }) });
  it('2xx applies and keeps the server copy', () => {
    expect(outcomeOf(put, 200, { data: rec({ row_version: 3, name: 'mine', updated_at: 'now' }) })).toEqual({
      kind: 'applied', record: rec({ row_version: 3, name: 'mine', updated_at: 'now' }),
    });
  });
  it('409 is a conflict carrying the stored copy', () => {
    expect(outcomeOf(put, 409, { message: 'm', data: rec({ row_version: 3, name: 'theirs' }) })).toEqual({
      kind: 'conflict', remote: rec({ row_version: 3, name: 'theirs' }),
    });
  });
  it('409 whose stored copy is our own write counts as applied (a lost answer, replayed)', () => {
    const stored = rec({ row_version: 3, name: 'mine', created_by: 7, updated_at: 'now' });
    expect(outcomeOf(put, 409, { message: 'm', data: stored })).toEqual({ kind: 'applied', record: stored });
  });
  it('404 on a delete means it is gone already', () => {
    expect(outcomeOf(request({ method: 'delete' }), 404, { message: 'Not Found' }).kind).toBe('applied');
  });
  it('5xx, 408 and 429 are retried; 401 waits for a session; other 4xx are refused', () => {
    expect(outcomeOf(put, 500, {}).kind).toBe('retry');
    expect(outcomeOf(put, 503, null).kind).toBe('retry');
    expect(outcomeOf(put, 408, null).kind).toBe('retry');
    expect(outcomeOf(put, 429, null).kind).toBe('retry');
    expect(outcomeOf(put, 401, { message: 'x' }).kind).toBe('session');
    expect(outcomeOf(put, 422, { message: 'Validation Error: name' })).toEqual({ kind: 'rejected', status: 422, message: 'Validation Error: name' });
    expect(outcomeOf(put, 403, null).kind).toBe('rejected');
  });
});

describe('after an answer', () => {
  it('a successful save keeps the server copy unless a later local edit is pending or newer', () => {
    const server = rec({ row_version: 3, updated_at: 'now' });
    expect(afterApplied({ method: 'put' }, server, rec({ row_version: 3 }), false)).toEqual(server);
    expect(afterApplied({ method: 'put' }, server, rec({ row_version: 4 }), true)).toBeUndefined();
    expect(afterApplied({ method: 'put' }, server, rec({ row_version: 6 }), false)).toBeUndefined();
  });
  it('a successful delete removes the record', () => {
    expect(afterApplied({ method: 'delete' }, null, rec({ row_version: 3 }), false)).toBeNull();
  });
  it('a refused save restores the previous copy, or removes a new record', () => {
    expect(afterRejected({ old: rec({ row_version: 2, name: 'before' }) })).toEqual(rec({ row_version: 2, name: 'before' }));
    expect(afterRejected({ old: null })).toBeNull();
  });
  it('a conflict records local and remote and adopts the remote', () => {
    const local = rec({ row_version: 3, name: 'mine' });
    const remote = rec({ row_version: 3, name: 'theirs' });
    expect(afterConflict(local, remote)).toEqual({ conflict: { local, remote }, adopt: remote });
  });
});

describe('remote events apply only if newer', () => {
  it('saved', () => {
    expect(applyRemoteChange(rec({ row_version: 2 }), 'saved', rec({ row_version: 3, name: 'r' }))).toMatchObject({ name: 'r' });
    expect(applyRemoteChange(rec({ row_version: 3 }), 'saved', rec({ row_version: 3, name: 'r' }))).toBeUndefined();
    expect(applyRemoteChange(rec({ row_version: 4 }), 'saved', rec({ row_version: 3 }))).toBeUndefined();
    expect(applyRemoteChange(null, 'saved', rec({ row_version: 1 }))).toMatchObject({ row_version: 1 });
  });
  it('deleted', () => {
    expect(applyRemoteChange(rec({ row_version: 2 }), 'deleted', rec({ row_version: 2 }))).toBeNull();
    expect(applyRemoteChange(rec({ row_version: 2 }), 'deleted', null)).toBeNull();
    expect(applyRemoteChange(rec({ row_version: 5 }), 'deleted', rec({ row_version: 4 }))).toBeUndefined();
    expect(applyRemoteChange(null, 'deleted', rec({ row_version: 4 }))).toBeUndefined();
  });
});
