import { describe, expect, it } from 'vitest';
import { markReadable } from '../../server/sync/changes';

/**
 * /changes judges each reader's page with ReadView.filter and marks what it kept by each copy's
 * place on the page (server/sync/changes.ts, decision 0285). The marks must be exactly what the
 * filter kept, whatever order it answers in, and nothing when it answers objects not on the page.
 */
const page = () => Array.from({ length: 6 }, (_, n) => ({ id: `r${n}` }));
const at = [10, 3, 7, 0, 12, 5];
const marked = (ok: Uint8Array) => at.filter((i) => ok[i] === 1);

describe('markReadable', () => {
  it('marks the kept records of an in-order subset, and only them', () => {
    const records = page();
    const ok = new Uint8Array(13);
    markReadable(records, [records[1]!, records[2]!, records[5]!], at, ok);
    expect(marked(ok)).toEqual([3, 7, 5]);
    expect([...ok].filter((v) => v === 1)).toHaveLength(3);
  });

  it('marks all or nothing', () => {
    const records = page();
    const all = new Uint8Array(13);
    markReadable(records, records, at, all);
    expect(marked(all)).toEqual(at);
    const none = new Uint8Array(13);
    markReadable(records, [], at, none);
    expect([...none].every((v) => v === 0)).toBe(true);
  });

  it('still marks exactly the kept records when the subset comes in another order', () => {
    const records = page();
    const ok = new Uint8Array(13);
    markReadable(records, [records[4]!, records[0]!, records[3]!], at, ok);
    expect(marked(ok).sort((a, b) => a - b)).toEqual([0, 10, 12]);
    expect([...ok].filter((v) => v === 1)).toHaveLength(3);
  });

  it('marks nothing for objects that are not the page’s own (equal copies included)', () => {
    const records = page();
    const ok = new Uint8Array(13);
    markReadable(records, [{ id: 'r1' }, { id: 'r2' }], at, ok);
    expect([...ok].every((v) => v === 0)).toBe(true);
  });
});
