/**
 * Dropdown search (shell.md §5): an option matches when the query is a prefix of the whole label
 * or of one of its words, or the same of one of its synonyms. Case and accents are ignored.
 * A query of several words matches when each word is a prefix of a different label word, in order
 * ("pro man" finds "Project manager").
 */

export interface SearchableOption {
  label: string;
  synonyms?: readonly string[];
}

/** Lower case without accents, so "é" matches "e". */
export function normalize(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLocaleLowerCase().trim();
}

function words(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** 0 = prefix of the whole label, 1 = prefix of a word, 2 = all query words match words in order, -1 = no match. */
function rank(query: string, text: string): number {
  const label = normalize(text);
  if (label.startsWith(query)) return 0;
  const labelWords = words(label);
  if (labelWords.some((word) => word.startsWith(query))) return 1;
  const queryWords = words(query);
  if (queryWords.length > 1) {
    let at = 0;
    for (const q of queryWords) {
      while (at < labelWords.length && !labelWords[at].startsWith(q)) at++;
      if (at === labelWords.length) return -1;
      at++;
    }
    return 2;
  }
  return -1;
}

/** How well an option matches (lower is better), or -1. Synonym matches rank after label matches. */
export function matchRank(query: string, option: SearchableOption): number {
  const q = normalize(query);
  if (q.length === 0) return 0;
  const own = rank(q, option.label);
  if (own >= 0) return own;
  for (const synonym of option.synonyms ?? []) {
    const r = rank(q, synonym);
    if (r >= 0) return 3 + r;
  }
  return -1;
}

export function matchesOption(query: string, option: SearchableOption): boolean {
  return matchRank(query, option) >= 0;
}

/** The options that match, best first; equal ranks keep their original order. */
export function filterOptions<T extends SearchableOption>(options: readonly T[], query: string): T[] {
  if (normalize(query).length === 0) return [...options];
  return options
    .map((option, index) => ({ option, index, rank: matchRank(query, option) }))
    .filter((entry) => entry.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.option);
}
