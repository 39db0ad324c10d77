import { describe, expect, it } from 'vitest';
import { createNotSavedStore } from '../../src/connectivity/not-saved';

const entry = (id: string) => ({ collection: 'item', id, method: 'put' as const, status: 422, message: 'no', refused_at: 1, created_at: 1, item: null, old: null, label: { item: id, attribute: null, value: null } });

describe('the "Not saved" store', () => {
  it('follows its source, and an older answer arriving late never replaces a newer one', async () => {
    const store = createNotSavedStore();
    const answers: ((list: ReturnType<typeof entry>[]) => void)[] = [];
    const calls: string[] = [];
    store.setSource({
      list: () => new Promise((resolve) => answers.push(resolve)),
      retry: async (_c, id) => void calls.push(`retry ${id}`),
      discard: async (_c, id) => void calls.push(`discard ${id}`),
    });
    const second = store.refresh();
    answers[1]!([entry('b')]);
    await second;
    answers[0]!([entry('a')]); // the first ask answers last
    await new Promise((r) => setTimeout(r, 0));
    expect(store.get().map((e) => e.id)).toEqual(['b']);

    let seen = 0;
    store.subscribe(() => seen++);
    const retried = store.retry(entry('b'));
    await new Promise((r) => setTimeout(r, 0));
    answers[2]!([]);
    await retried;
    expect(calls).toEqual(['retry b']);
    expect(store.get()).toEqual([]);
    expect(seen).toBe(1);
  });

  it('signing out empties the list and later asks do nothing', async () => {
    const store = createNotSavedStore();
    store.setSource({ list: async () => [entry('x')], retry: async () => undefined, discard: async () => undefined });
    await store.refresh();
    expect(store.get()).toHaveLength(1);
    store.setSource(null);
    expect(store.get()).toEqual([]);
    await store.refresh();
    expect(store.get()).toEqual([]);
  });
});
