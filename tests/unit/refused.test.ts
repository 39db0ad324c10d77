import { describe, expect, it } from 'vitest';
import { refusedEditOf, refusedEditText, refusedLabel, retryRecord, valueText } from '../../sync-worker/refused';
import type { QueuedRequest, SyncRecord } from '../../sync-worker/types';

const request = (fields: Partial<QueuedRequest>): QueuedRequest => ({
  key: 'k1', seq: 1, teamId: 7, collection: 'item', id: 'i1', method: 'put', route: 'items/i1', channel: 'c', transaction: null,
  multiple: false, item: { id: 'i1', name: 'one', row_version: 2 }, old: { id: 'i1', name: 'zero', row_version: 1 }, created_at: 100,
  attempts: 1, error: null, reserved_at: null, batch_key: null, ...fields,
});

describe('refusedEditOf', () => {
  it('keeps the refused request and the later ones, the newest as the intended record', () => {
    const later = request({ key: 'k2', seq: 2, item: { id: 'i1', name: 'two', row_version: 3 }, old: { id: 'i1', name: 'one', row_version: 2 }, created_at: 200 });
    const row = refusedEditOf(undefined, request({}), [later], 403, 'no', 500);
    expect(row).toMatchObject({ collection: 'item', id: 'i1', teamId: 7, method: 'put', item: { name: 'two' }, old: { name: 'zero' }, status: 403, message: 'no', refused_at: 500, created_at: 100 });
    expect(row.requests.map((r) => r.key)).toEqual(['k1', 'k2']);
  });

  it('a later delete makes the row a delete', () => {
    const row = refusedEditOf(undefined, request({}), [request({ key: 'k2', seq: 2, method: 'delete', item: null })], 422, 'x', 1);
    expect(row).toMatchObject({ method: 'delete', item: null });
  });

  it('a second refusal of the same record keeps the first old copy, first time and every request', () => {
    const first = refusedEditOf(undefined, request({}), [], 422, 'a', 10);
    const second = refusedEditOf(first, request({ key: 'k9', seq: 9, item: { id: 'i1', name: 'nine', row_version: 2 }, created_at: 900 }), [], 404, 'b', 20);
    expect(second).toMatchObject({ item: { name: 'nine' }, old: { name: 'zero' }, created_at: 100, status: 404, message: 'b', refused_at: 20 });
    expect(second.requests.map((r) => r.key)).toEqual(['k1', 'k9']);
  });
});

describe('labels and text', () => {
  const records: Record<string, SyncRecord> = {
    'item:I': { id: 'I', name: 'Write the plan', row_version: 1 },
    'attribute:A': { id: 'A', name: 'Owner', row_version: 1 },
  };
  const lookup = (c: string, id: string) => records[`${c}:${id}`];

  it('names a value by its item, its attribute and the value', () => {
    const item = { id: 'I.A', item_id: 'I', attribute_id: 'A', value: 'Ana', row_version: 1 };
    expect(refusedLabel({ collection: 'value', item, old: null }, lookup)).toEqual({ item: 'Write the plan', attribute: 'Owner', value: 'Ana' });
  });

  it('names an item by its name, a comment by its item and words', () => {
    expect(refusedLabel({ collection: 'item', item: { id: 'x', name: 'New', row_version: 1 }, old: null }, lookup)).toEqual({ item: 'New', attribute: null, value: null });
    const comment = { id: 'c', item_id: 'I', text: { html: '<p>Hello <b>there</b></p>' }, row_version: 1 };
    expect(refusedLabel({ collection: 'comment', item: comment, old: null }, lookup)).toEqual({ item: 'Write the plan', attribute: null, value: 'Hello there' });
  });

  it('a deleted record is named from the copy it replaced; an unknown item leaves the name out', () => {
    const old = { id: 'I.Z', item_id: 'missing', attribute_id: 'A', value: 3, row_version: 4 };
    expect(refusedLabel({ collection: 'value', item: null, old }, lookup)).toEqual({ item: null, attribute: 'Owner', value: null });
  });

  it('shortens long values and writes JSON for others', () => {
    expect(valueText('x'.repeat(500))).toHaveLength(120);
    expect(valueText({ a: 1 })).toBe('{"a":1}');
    expect(valueText(null)).toBeNull();
  });

  it('the copied text is JSON holding the record and the server answer, without the local tag', () => {
    const text = refusedEditText({
      collection: 'value', id: 'I.A', method: 'put', status: 404, message: 'Not Found',
      item: { id: 'I.A', value: 'Ana', row_version: 1, collection: 'value' } as SyncRecord,
      label: { item: 'Write the plan', attribute: 'Owner', value: 'Ana' },
    });
    expect(JSON.parse(text)).toEqual({
      collection: 'value', id: 'I.A', method: 'put', item: 'Write the plan', attribute: 'Owner',
      server: { status: 404, message: 'Not Found' }, record: { id: 'I.A', value: 'Ana', row_version: 1 },
    });
  });

  it('retryRecord is the intended record without the tag; a delete has none', () => {
    expect(retryRecord({ item: { id: 'a', row_version: 2, collection: 'item' } } as never)).toEqual({ id: 'a', row_version: 2 });
    expect(retryRecord({ item: null } as never)).toBeNull();
  });
});
