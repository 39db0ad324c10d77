import { describe, expect, it } from 'vitest';
import { refusedReasonOf } from '../../schema/sync-conflicts';
import { inboxEntries } from '../../sync-worker/inbox';
import type { ConflictRecord } from '../../schema/sync-conflicts';
import type { RefusedEdit, SyncRecord } from '../../sync-worker/types';

/** The conflict inbox list (issue 30, decision 0345): names, order and the refusal reasons. */

const names: Record<string, SyncRecord> = {
  'item:i1': { id: 'i1', row_version: 2, name: 'Café supplies' },
  'attribute:a1': { id: 'a1', row_version: 1, name: 'Budget' },
};
const lookup = (collection: string, id: string) => names[`${collection}:${id}`];

const conflict = (over: Partial<ConflictRecord>): ConflictRecord => ({
  seq: 1, kind: 'field', collection: 'value', id: 'i1.a1', item_id: 'i1', attribute_id: 'a1', field: 'value', text: false,
  mine: 90, theirs: 120, base: 50, theirs_by: null, theirs_at: null, theirs_row_version: 3, time: 10, local: null, remote: null, ...over,
});

describe('conflict inbox', () => {
  it('names a value conflict by its item and attribute, an item conflict by the field; conflicts come first, oldest first', () => {
    const refused: RefusedEdit = {
      collection: 'item', id: 'i1', teamId: 1, method: 'put', route: 'items/i1', item: { id: 'i1', row_version: 3, name: 'Mine' }, old: null,
      status: 403, message: 'This action is unauthorized.', refused_at: 1, created_at: 1, requests: [],
    };
    const list = inboxEntries([conflict({ seq: 2, time: 20, collection: 'item', id: 'i1', attribute_id: null, field: 'name' }), conflict({})], [refused], lookup);
    expect(list.map((e) => e.type)).toEqual(['conflict', 'conflict', 'refused']);
    expect(list[0]).toMatchObject({ seq: 1, label: { item: 'Café supplies', field: 'Budget' }, mine: 90, theirs: 120 });
    expect(list[1]).toMatchObject({ seq: 2, label: { item: 'Café supplies', field: 'name' } });
    expect(list[2]).toMatchObject({ reason: 'permission', item_id: 'i1', item: { name: 'Mine' }, label: { item: 'Café supplies' } });
  });

  it('carries the attribute of a value (kind and options) and the names of the items a reference points at (decision 0346)', () => {
    const more: Record<string, SyncRecord> = {
      ...names,
      'attribute:s1': { id: 's1', row_version: 1, name: 'Status', kind: 'status', settings: { options: [{ id: 'wip', name: 'Working' }] } },
      'attribute:r1': { id: 'r1', row_version: 1, name: 'Depends on', kind: 'reference', settings: {} },
      'item:i2': { id: 'i2', row_version: 1, name: 'Order boxes' },
    };
    const find = (collection: string, id: string) => more[`${collection}:${id}`];
    const list = inboxEntries([conflict({ id: 'i1.s1', attribute_id: 's1', mine: 'wip', theirs: 'done' }), conflict({ seq: 3, id: 'i1.r1', attribute_id: 'r1', mine: ['i2'], theirs: ['gone'] })], [], find);
    expect(list[0]).toMatchObject({ label: { field: 'Status', attribute: { id: 's1', kind: 'status', settings: { options: [{ id: 'wip', name: 'Working' }] } } } });
    expect(list[0]!.label.items).toBeUndefined();
    expect(list[1]).toMatchObject({ label: { field: 'Depends on', attribute: { kind: 'reference' }, items: { i2: 'Order boxes' } } });
  });

  it('says why an edit was refused in one of a few plain reasons', () => {
    expect(refusedReasonOf(403)).toBe('permission');
    expect(refusedReasonOf(404)).toBe('deleted');
    expect(refusedReasonOf(422, 'Validation Error: name: too long')).toBe('validation');
    expect(refusedReasonOf(422, 'The storage limit of your plan is reached')).toBe('quota');
    expect(refusedReasonOf(402)).toBe('quota');
    expect(refusedReasonOf(424)).toBe('dependent');
    expect(refusedReasonOf(418)).toBe('other');
  });
});
