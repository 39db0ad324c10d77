/**
 * The folder pane's order of a big board, in Node (no browser): the first filter and sort of
 * 100,000 items, then a value edit, a rename and a page of a streaming open patched in
 * (model/item-order.ts, decision 0315) beside the full filter and sort they replace.
 *
 *   npx tsx bench/item-order.ts [items=100000]
 */
import { newLabel } from '../schema/attributes';
import { ItemOrder, type OrderSpec } from '../src/boards/model/item-order';
import { filterItems, sortItems, type AttributeRef, type ItemLike } from '../src/boards/model/query';

const N = Number(process.argv[2] ?? 100_000);
const status: AttributeRef = { id: 'st', kind: 'status', settings: { options: [newLabel('todo', 'To do'), newLabel('doing', 'Doing'), newLabel('done', 'Done')] } };
const text: AttributeRef = { id: 'x', kind: 'text' };
const num: AttributeRef = { id: 'n', kind: 'number' };
const attributes = new Map([status, text, num].map((a) => [a.id, a]));
type It = ItemLike & { folder_id: string };
const values = new Map<string, unknown>();
let items: It[] = Array.from({ length: N }, (_, i) => {
  values.set(`i${i}.st`, ['todo', 'doing', 'done'][i % 3]);
  values.set(`i${i}.x`, `Text ${(i * 7919) % N}`);
  values.set(`i${i}.n`, (i * 31) % 1000);
  return { id: `i${i}`, name: `Item ${i}`, position: i, folder_id: 'f', created_at: '2026-01-01' };
});
const get = (itemId: string, attributeId: string) => values.get(`${itemId}.${attributeId}`) ?? null;
const time = (label: string, run: () => unknown) => {
  const t0 = performance.now();
  run();
  console.log(`${label.padEnd(58)} ${(performance.now() - t0).toFixed(1).padStart(8)} ms`);
};
const specs: [string, OrderSpec<It>][] = [
  ['no rules (position)', { id: 'a', inScope: () => true, filters: [], match: 'all', sort: [], attributes }],
  ['status filter, number sort', { id: 'b', inScope: () => true, filters: [{ attribute_id: 'st', op: 'is-not', value: 'done' }], match: 'all', sort: [{ attribute_id: 'n', direction: 'asc' }], attributes }],
  ['text sort', { id: 'c', inScope: () => true, filters: [], match: 'all', sort: [{ attribute_id: 'x', direction: 'asc' }], attributes }],
];
for (const [label, spec] of specs) {
  console.log(`\n${N} items, ${label}`);
  time('  full filter + sort (model/query.ts, what every change cost)', () => sortItems(filterItems(items, spec.filters, spec.match, attributes, get), spec.sort, attributes, get));
  const order = new ItemOrder<It>();
  time('  first order (ItemOrder)', () => order.update(items, spec, get));
  time('  the same list again (a warm open)', () => order.update(items, spec, get));
  values.set('i5.n', 999);
  values.set('i5.x', 'Zzz');
  const get2 = (itemId: string, attributeId: string) => values.get(`${itemId}.${attributeId}`) ?? null;
  time('  one value edited (a new reader, not told which)', () => order.update(items, spec, get2));
  values.set('i6.n', 998);
  const get3 = (itemId: string, attributeId: string) => values.get(`${itemId}.${attributeId}`) ?? null;
  time('  one value edited (told which, as the value lists tell)', () => order.update(items, spec, get3, () => ['i6']));
  items = items.slice();
  items[7] = { ...items[7]!, name: 'Renamed', position: N + 1 };
  time('  one item renamed and moved', () => order.update(items, spec, get3));
  const page = Array.from({ length: 1000 }, (_, i) => ({ id: `p${N}-${label}-${i}`, name: `New ${i}`, position: i * 97, folder_id: 'f', created_at: '2026-01-02' }));
  items = [...items, ...page];
  time('  a page of 1,000 new items (a streaming open)', () => order.update(items, spec, get3));
  items = items.slice();
  items[9] = { ...items[9]!, name: 'Renamed again' };
  time('  another rename (warm)', () => order.update(items, spec, get3));
}
