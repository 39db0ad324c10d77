import { CARRIED_QUERY_KEYS, routesByName } from '../../schema/routes';

export type Search = Record<string, unknown>;

/** Empty or undefined query and param values are dropped (shell.md §2). */
export function dropEmpty<T extends Record<string, unknown>>(values: T | undefined): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[key] = value;
  }
  return out as Partial<T>;
}

/**
 * The query of the next route: its own values (empties dropped), plus `pretend` and `hide_header`
 * carried from the previous route, plus the keys both routes keep (the template gallery keeps
 * teamId, boardId and folderId while you browse it). Values given for the next route win.
 */
export function nextSearch(opts: { fromName?: string; toName?: string; from: Search; to: Search | undefined }): Search {
  const carried: Search = {};
  for (const key of CARRIED_QUERY_KEYS) if (opts.from[key] !== undefined) carried[key] = opts.from[key];
  const fromKeeps = opts.fromName ? routesByName.get(opts.fromName)?.keepQuery ?? [] : [];
  const toKeeps = opts.toName ? routesByName.get(opts.toName)?.keepQuery ?? [] : [];
  for (const key of toKeeps) if (fromKeeps.includes(key) && opts.from[key] !== undefined) carried[key] = opts.from[key];
  const merged = { ...carried, ...(opts.to ?? {}) };
  // An explicit empty value removes a carried key.
  return dropEmpty(merged);
}

/**
 * Whether a query string carries a key with an empty value (`?a=&b=1`). The flags `pretend` and
 * `hide_header` are meant bare (`?pretend`) and stay.
 */
export function hasEmptyValue(searchStr: string): boolean {
  for (const [key, value] of new URLSearchParams(searchStr)) if (value === '' && !(CARRIED_QUERY_KEYS as readonly string[]).includes(key)) return true;
  return false;
}
