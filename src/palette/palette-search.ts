/**
 * The command palette's search (pure, no DOM; bench/palette.ts measures it): names folded once
 * into lower case without accents, then every keystroke scans them for the query's words and keeps
 * the best few. 100,000 items take a few milliseconds per keystroke, so no index structure is
 * needed beyond the folded strings.
 */

export interface PaletteEntry {
  /** Unique within its kind. */
  id: string;
  kind: 'item' | 'board' | 'folder' | 'workspace' | 'action' | 'view';
  label: string;
  /** Where it lives ("Bug tracker", "Demo workspace"), shown dimmed. */
  detail?: string;
  /** Extra words that find it (an action's synonyms). */
  keywords?: string;
}

export interface SearchIndex<E extends PaletteEntry = PaletteEntry> {
  entries: E[];
  folded: string[];
  /** The last query and the entries it matched: typing on narrows within them (see search). */
  last?: { query: string; matches: number[] };
}

const MARKS = /[\u0300-\u036f]/g;
const NON_ASCII = /[^\x00-\x7f]/;
const SPACES = /\s+/g;

/** Lower case, accents removed, spaces collapsed: what both names and queries are compared as. */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  // Unicode normalisation is the slow part; plain ASCII names (most) skip it.
  const plain = NON_ASCII.test(lower) ? lower.normalize('NFD').replace(MARKS, '') : lower;
  return plain.replace(SPACES, ' ').trim();
}

export function buildIndex<E extends PaletteEntry>(entries: E[]): SearchIndex<E> {
  return { entries, folded: entries.map((e) => fold(e.keywords ? `${e.label} ${e.keywords}` : e.label)) };
}

/**
 * How well a folded name matches the folded query (higher is better; 0 = no match): every word of
 * the query must occur; the whole query at the start beats it at a word's start, which beats it
 * anywhere; shorter names win ties.
 */
export function score(name: string, query: string, words: string[], spaced = ` ${query}`): number {
  for (const word of words) if (!name.includes(word)) return 0;
  let base = 1;
  if (name.startsWith(query)) base = 4;
  else if (name.includes(spaced)) base = 3;
  else if (name.includes(query)) base = 2;
  return base + 1 / (1 + name.length);
}

/** The best `limit` entries for the query, best first; an empty query gives the first `limit`. */
export function search<E extends PaletteEntry>(index: SearchIndex<E>, rawQuery: string, limit: number): E[] {
  const query = fold(rawQuery);
  if (!query) return index.entries.slice(0, limit);
  const words = query.split(' ');
  const spaced = ` ${query}`;
  // A small sorted list of the best so far: far cheaper than sorting every match.
  const best: { s: number; i: number }[] = [];
  const { folded } = index;
  // Typing on (the new query extends the last one) can only narrow: look only at what matched.
  const narrowing = index.last && query.startsWith(index.last.query) ? index.last.matches : null;
  const matches: number[] = [];
  const count = narrowing ? narrowing.length : folded.length;
  for (let k = 0; k < count; k++) {
    const i = narrowing ? narrowing[k]! : k;
    const s = score(folded[i]!, query, words, spaced);
    if (s === 0) continue;
    matches.push(i);
    if (best.length === limit && s <= best[best.length - 1]!.s) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.s < s) at--;
    best.splice(at, 0, { s, i });
    if (best.length > limit) best.pop();
  }
  index.last = { query, matches };
  return best.map((b) => index.entries[b.i]!);
}

/** Recently opened entries, newest first, without duplicates, at most `max`. */
export function remember<T extends { kind: string; id: string }>(recent: readonly T[], entry: T, max = 8): T[] {
  return [entry, ...recent.filter((r) => !(r.kind === entry.kind && r.id === entry.id))].slice(0, max);
}
