import { useCallback, useSyncExternalStore } from 'react';
import type { ViewSettings } from '../../../schema/views';

/**
 * A view's filters, sorts and groups are personal until "Save for everyone" (issue #30 part 6,
 * review M2; decision 0353): what a user changes there is kept for that user only, in this
 * browser's localStorage (so it survives reloads and is shared by the user's tabs), laid over the
 * view's shared settings. The shared view changes only when the user saves it for everyone.
 */

/** The settings that are personal until saved: what a view shows and in which order. */
export const PERSONAL_KEYS = ['sort', 'filters', 'match', 'group_by', 'hide_empty_groups', 'include_subfolders'] as const;
export type PersonalKey = (typeof PERSONAL_KEYS)[number];
export type PersonalSettings = Partial<Pick<ViewSettings, PersonalKey>>;

const PREFIX = 'cairn.view-personal.';
const listeners = new Set<() => void>();
const cache = new Map<string, PersonalSettings | null>();

/** One user's copy of one view: a saved view by its id, the built-in Table by its folder. */
export function personalKeyOf(userId: number | null, boardId: string, viewId: string | null, folderId: string): string {
  return `${PREFIX}${userId ?? 'anonymous'}.${boardId}.${viewId ?? `table:${folderId}`}`;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function read(key: string): PersonalSettings | null {
  if (cache.has(key)) return cache.get(key)!;
  let value: PersonalSettings | null = null;
  try {
    const raw = storage()?.getItem(key);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (parsed && typeof parsed === 'object') value = pick(parsed as Record<string, unknown>);
  } catch {
    value = null;
  }
  cache.set(key, value);
  return value;
}

function write(key: string, value: PersonalSettings | null) {
  cache.set(key, value);
  try {
    if (value) storage()?.setItem(key, JSON.stringify(value));
    else storage()?.removeItem(key);
  } catch {
    // A full or blocked storage keeps the change for this tab's life (the cache) rather than losing it.
  }
  for (const listener of listeners) listener();
}

function pick(source: Record<string, unknown>): PersonalSettings {
  const out: Record<string, unknown> = {};
  for (const k of PERSONAL_KEYS) if (k in source) out[k] = source[k];
  return out as PersonalSettings;
}

/** The personal keys of a patch, and the rest (which stays shared: column widths, order…). */
export function splitPatch(patch: Record<string, unknown>): { personal: PersonalSettings; shared: Record<string, unknown> } {
  const personal: Record<string, unknown> = {};
  const shared: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) ((PERSONAL_KEYS as readonly string[]).includes(k) ? personal : shared)[k] = v;
  return { personal: personal as PersonalSettings, shared };
}

/** The shared settings with this user's personal ones laid over them. */
export function overlay<S extends ViewSettings>(shared: S, personal: PersonalSettings | null): S {
  return personal ? { ...shared, ...personal } : shared;
}

/** The personal keys that differ from the shared view (what "Save for everyone" would write). */
export function unsavedChanges(shared: ViewSettings, personal: PersonalSettings | null): PersonalSettings | null {
  if (!personal) return null;
  const out: Record<string, unknown> = {};
  for (const k of PERSONAL_KEYS) if (k in personal && JSON.stringify(personal[k]) !== JSON.stringify(shared[k])) out[k] = personal[k];
  return Object.keys(out).length ? (out as PersonalSettings) : null;
}

/** The user's personal settings of a view now (outside React). */
export const personalSettingsOf = (key: string): PersonalSettings | null => read(key);

/** Adds a change to the user's personal settings of a view. */
export function setPersonal(key: string, patch: PersonalSettings) {
  write(key, { ...(read(key) ?? {}), ...patch });
}

/** Drops them: the view shows its shared settings again ("Reset", or after saving for everyone). */
export function resetPersonal(key: string) {
  write(key, null);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab of this browser changed them: read again.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(PREFIX)) {
      if (event.key) cache.delete(event.key);
      else cache.clear();
      listener();
    }
  };
  if (typeof window !== 'undefined') window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    if (typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
  };
}

/** This user's personal settings of a view (null: none, the view shows as shared). */
export function usePersonalView(key: string): PersonalSettings | null {
  const get = useCallback(() => read(key), [key]);
  return useSyncExternalStore(subscribe, get, () => null);
}
