/**
 * Document bodies (decision 0135): what the CRDT part of typing costs in a 20-page document — one
 * keystroke applied to the Y.Doc (the transaction y-prosemirror makes), the update it yields, the
 * 400 ms batch merged into one record (DocBody.flush), and a replica applying that record; plus the
 * server's compaction of a day of such records. No DOM: the editor's own rendering is not in these
 * figures (the budget "typing in a 20-page document p95 ≤ 16 ms" is for the whole path in the
 * browser, which this does not measure).
 *
 *   npx tsx bench/docs-crdt.ts [keystrokes=2000]
 *
 * Prints; never fails.
 */
import * as Y from 'yjs';
import { DOC_FRAGMENT } from '../schema/doc-records';

const KEYSTROKES = Number(process.argv[2] ?? 2000);
const PAGES = 20;
const PARAGRAPHS_PER_PAGE = 30;
const WORDS = 'the quick brown fox jumps over the lazy dog while the team writes the onboarding guide '.split(' ');

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (x: number) => `${x.toFixed(3)} ms`;

function twentyPages(): Y.Doc {
  const doc = new Y.Doc();
  const fragment = doc.getXmlFragment(DOC_FRAGMENT);
  doc.transact(() => {
    for (let p = 0; p < PAGES * PARAGRAPHS_PER_PAGE; p++) {
      const paragraph = new Y.XmlElement(p % PARAGRAPHS_PER_PAGE === 0 ? 'heading' : 'paragraph');
      paragraph.insert(0, [new Y.XmlText(Array.from({ length: 18 }, (_, i) => WORDS[(p + i) % WORDS.length]).join(' '))]);
      fragment.insert(fragment.length, [paragraph]);
    }
  });
  return doc;
}

const writer = twentyPages();
// The document as the server holds it before the typing (its compacted record).
const initial = Buffer.from(Y.encodeStateAsUpdate(writer)).toString('base64');
const reader = new Y.Doc();
Y.applyUpdate(reader, Y.encodeStateAsUpdate(writer));
const chars = writer.getXmlFragment(DOC_FRAGMENT).toString().length;
console.log(`document: ${PAGES} pages, ${PAGES * PARAGRAPHS_PER_PAGE} blocks, ${chars.toLocaleString()} characters of XML, state ${Y.encodeStateAsUpdate(writer).length.toLocaleString()} bytes`);

const keystroke: number[] = [];
const batchMerge: number[] = [];
const replicaApply: number[] = [];
let pending: Uint8Array[] = [];
const records: string[] = [];
writer.on('update', (u: Uint8Array) => pending.push(u));
const fragment = writer.getXmlFragment(DOC_FRAGMENT);
for (let k = 0; k < KEYSTROKES; k++) {
  // Type in the middle of the document, as a writer editing page 10 does.
  const block = fragment.get(Math.floor(fragment.length / 2) + (k % 7)) as Y.XmlElement;
  const text = block.get(0) as Y.XmlText;
  const t0 = performance.now();
  text.insert(text.length, 'x');
  keystroke.push(performance.now() - t0);
  // A 400 ms batch holds ~5 keystrokes at a fast typist's pace.
  if (pending.length === 5) {
    const t1 = performance.now();
    const base64 = Buffer.from(Y.mergeUpdates(pending)).toString('base64');
    batchMerge.push(performance.now() - t1);
    pending = [];
    records.push(base64);
    const t2 = performance.now();
    Y.applyUpdate(reader, new Uint8Array(Buffer.from(base64, 'base64')));
    replicaApply.push(performance.now() - t2);
  }
}
console.log(`keystroke into the Y.Doc (${keystroke.length}): p50 ${ms(pct(keystroke, 50))}, p95 ${ms(pct(keystroke, 95))}, max ${ms(Math.max(...keystroke))}`);
console.log(`batch of 5 merged + base64 (${batchMerge.length}): p50 ${ms(pct(batchMerge, 50))}, p95 ${ms(pct(batchMerge, 95))}; record ~${Math.round(records.reduce((s, r) => s + r.length, 0) / records.length)} characters`);
console.log(`replica applies a record (${replicaApply.length}): p50 ${ms(pct(replicaApply, 50))}, p95 ${ms(pct(replicaApply, 95))}`);
const t3 = performance.now();
const merged = Y.mergeUpdates([initial, ...records].map((r) => new Uint8Array(Buffer.from(r, 'base64'))));
console.log(`compaction of ${records.length + 1} records: ${ms(performance.now() - t3)} → ${merged.length.toLocaleString()} bytes`);
console.log(`(budget for the whole path in the browser: p95 ≤ 16 ms; machine load ${(await import('node:os')).loadavg()[0]!.toFixed(1)})`);
const t4 = performance.now();
const loaded = new Y.Doc();
for (const r of [initial, ...records]) Y.applyUpdate(loaded, new Uint8Array(Buffer.from(r, 'base64')));
const reencoded = Y.encodeStateAsUpdate(loaded);
console.log(`the same through a Y.Doc (load + encodeStateAsUpdate): ${ms(performance.now() - t4)} → ${reencoded.length.toLocaleString()} bytes`);
