/**
 * Page half of bench/edit-visible.ts: the tab reads the replica with liveQuery (as the board's
 * hooks do) and times a value edit from the call until the page's query shows it.
 */
import * as Comlink from 'comlink';
import { liveQuery } from 'dexie';
import { nanoid } from 'nanoid';
import { openReadonlyDb } from '../sync-worker/db';
import type { EditBenchWorker } from './edit-visible-worker';

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};
const figures = (times: number[]) => ({ p50: pct(times, 50), p95: pct(times, 95), max: Math.max(...times) });

async function run(items: number, edits: number) {
  const worker = Comlink.wrap<EditBenchWorker>(new Worker('/worker.js', { type: 'module' }));
  const user = 'edit-visible-' + nanoid(6);
  const board = nanoid();
  const attribute = nanoid();
  const ids = await worker.seed(user, board, attribute, items);
  const db = openReadonlyDb(user);
  await db.open();

  /** Times `write` until the page's query over `read` shows the new value. */
  const measure = async (label: 'key' | 'column', write: (id: string, value: string) => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < edits; i++) {
      const id = ids[(i * 7919) % ids.length]!;
      const value = `edit ${i} ${nanoid(4)}`;
      const valueId = `${id}.${attribute}`;
      const query =
        label === 'key'
          ? () => db.records.get(['value', valueId]).then((r) => r?.value)
          : () => db.records.where('[collection+attribute_id]').equals(['value', attribute]).toArray().then((rows) => rows.find((r) => r.id === valueId)?.value);
      let first = true;
      const seen = new Promise<void>((resolve) => {
        const sub = liveQuery(query).subscribe((shown) => {
          if (first) {
            first = false;
            return;
          }
          if (shown === value) {
            resolve();
            queueMicrotask(() => sub.unsubscribe());
          }
        });
      });
      // Let the first (current) result arrive before the edit.
      await new Promise((r) => setTimeout(r, label === 'column' ? 50 : 5));
      const t = performance.now();
      await write(id, value);
      await seen;
      times.push(performance.now() - t);
    }
    return figures(times);
  };
  // An idle frame: what "within a frame" means on this machine.
  const frames: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    await new Promise((r) => requestAnimationFrame(() => r(null)));
    frames.push(performance.now() - t);
  }
  const raw = await measure('key', (id, value) => worker.rawPut(id, attribute, value, board));
  const apply = await measure('key', (id, value) => worker.setValue(id, attribute, value));
  const column = await measure('column', (id, value) => worker.setValue(id, attribute, value));
  return { frame: figures(frames), raw, apply, column };
}

(window as unknown as { editBench: unknown }).editBench = { run };
