/**
 * Command palette (issue #17 part 3): how long it takes to open and to search 100,000 items per
 * keystroke. Budgets: opens ≤ 50 ms, ≤ 100 ms per keystroke.
 *
 *   npx tsx bench/palette.ts [items=100000]
 *
 * "Open" is what the palette computes before its first paint: the actions and boards index and the
 * first list (items are read from IndexedDB after it is on screen; e2e/shell-first-minutes.test.ts
 * prints the real key-press-to-dialog time in Chromium). "Items index" is the one pass over the
 * item names once they are read. Each keystroke is a full search of every name with the query typed
 * so far, as the palette does it (src/palette/palette-search.ts). Prints; never fails.
 */
import { buildIndex, search, type PaletteEntry } from '../src/palette/palette-search';

const COUNT = Number(process.argv[2] ?? 100_000);
const WORDS = ['design', 'landing', 'page', 'fix', 'login', 'export', 'csv', 'mobile', 'offline', 'sync', 'invoice', 'report', 'review', 'deploy', 'beta', 'customer', 'onboarding', 'Ünïcode', 'café', 'roadmap', 'bug', 'crash', 'settings', 'theme', 'dark', 'search', 'filter', 'kanban', 'calendar', 'gantt'];

let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = () => WORDS[Math.floor(random() * WORDS.length)]!;

const ms = (fn: () => void) => {
  const start = performance.now();
  fn();
  return performance.now() - start;
};
const fmt = (n: number) => n.toFixed(2);
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

const items: PaletteEntry[] = Array.from({ length: COUNT }, (_, i) => ({ id: `i${i}`, kind: 'item', label: `${pick()} ${pick()} ${pick()} #${i}`, detail: `Board ${i % 40}` }));
const boards: PaletteEntry[] = Array.from({ length: 60 }, (_, i) => ({ id: `b${i}`, kind: 'board', label: `${pick()} board ${i}` }));
const actions: PaletteEntry[] = ['New item', 'New board', 'Switch to the dark theme', 'Go to Home', 'Go to profile settings', 'Show keyboard shortcuts'].map((label, i) => ({ id: `a${i}`, kind: 'action', label }));

// Warm up the JIT the way a second opening would be.
search(buildIndex(items.slice(0, 2000)), 'des', 10);

const openTimes: number[] = [];
for (let run = 0; run < 5; run++) {
  openTimes.push(ms(() => {
    const actionIndex = buildIndex(actions);
    const places = buildIndex(boards);
    search(actionIndex, '', actions.length);
    search(places, '', 8);
  }));
}
let itemIndex = buildIndex([] as PaletteEntry[]);
const indexTime = ms(() => {
  itemIndex = buildIndex(items);
});

const queries = ['e', 'ex', 'exp', 'expo', 'expor', 'export', 'export ', 'export c', 'export cs', 'export csv', 'cafe', 'zzz', 'd', 'de', 'des', 'desi', 'design l', 'design la'];
const perKey: number[] = [];
for (const q of queries) perKey.push(ms(() => search(itemIndex, q, 10)));

console.log(`command palette (${COUNT.toLocaleString('en')} items, ${boards.length} boards; machine shared with other work, figures vary)`);
console.log(`  open (actions + boards + first list)   median ${fmt(median(openTimes))} ms   (budget ≤ 50 ms: ${median(openTimes) <= 50 ? 'ok' : 'OVER'})`);
console.log(`  items index (one pass, after paint)    ${fmt(indexTime)} ms`);
console.log(`  search per keystroke                   median ${fmt(median(perKey))} ms, max ${fmt(Math.max(...perKey))} ms   (budget ≤ 100 ms: ${Math.max(...perKey) <= 100 ? 'ok' : 'OVER'})`);
