import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types';

/**
 * Operator settings of the app shell (decision 0230), stored in `shell_settings` so every API
 * server of a cluster answers the same. Read through a short cache: the status banner is polled by
 * every open tab, so a read per poll would cost a query each time.
 *
 * - `message`: the status banner's text (GET /message answers it; null or empty → 204, no banner).
 * - `update`: what a client running another version than this server is told on each API answer:
 *   `off` (the hourly version check still prompts), `prompt` (x-update-required: 1), `force`
 *   (x-update-required: force → the page reloads after 60–160 s), `now` (x-force-reload: 1).
 *   Only clients whose X-Client-Version differs hear it, so a reloaded, current app never loops.
 * - `additional_scripts`: JavaScript served at GET /api/additional-scripts.js and loaded by the
 *   app when set (app-vars `additionalScripts`); null = none.
 */
export const UPDATE_MODES = ['off', 'prompt', 'force', 'now'] as const;
export type UpdateMode = (typeof UPDATE_MODES)[number];

export const shellSettingsSchema = z
  .object({
    message: z.string().max(500, 'must be at most 500 characters').nullable(),
    update: z.enum(UPDATE_MODES),
    additional_scripts: z.string().max(200_000, 'must be at most 200,000 characters').nullable(),
  })
  .partial()
  .strict();

export interface ShellSettings {
  message: string | null;
  update: UpdateMode;
  additional_scripts: string | null;
}

export const DEFAULT_SHELL_SETTINGS: ShellSettings = { message: null, update: 'off', additional_scripts: null };

/** How long a read is reused. A change reaches every server within this. */
export const SETTINGS_CACHE_MS = 5_000;

interface Cached {
  at: number;
  value: Promise<ShellSettings>;
}

const caches = new WeakMap<object, Cached>();

async function read(db: Kysely<Database>): Promise<ShellSettings> {
  const rows = await db.selectFrom('shell_settings').select(['key', 'value']).execute();
  const out: ShellSettings = { ...DEFAULT_SHELL_SETTINGS };
  for (const row of rows) {
    const parsed = shellSettingsSchema.safeParse({ [row.key]: row.value });
    // A row written by a later version with a value this one does not know is ignored.
    if (parsed.success) Object.assign(out, parsed.data);
  }
  return out;
}

/** The settings, at most SETTINGS_CACHE_MS old. A failed read gives the defaults (no banner, no headers). */
export function shellSettings(db: Kysely<Database>, opts: { fresh?: boolean } = {}): Promise<ShellSettings> {
  const now = Date.now();
  const cached = caches.get(db);
  if (!opts.fresh && cached && now - cached.at < SETTINGS_CACHE_MS) return cached.value;
  const value = read(db).catch(() => ({ ...DEFAULT_SHELL_SETTINGS }));
  caches.set(db, { at: now, value });
  return value;
}

/** Stores the given keys (others unchanged) and drops this server's cached copy. */
export async function saveShellSettings(db: Kysely<Database>, patch: Partial<ShellSettings>, at: Date): Promise<ShellSettings> {
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    await db
      .insertInto('shell_settings')
      .values({ key, value: JSON.stringify(value), updated_at: at })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: at }))
      .execute();
  }
  return shellSettings(db, { fresh: true });
}

/** The update headers an answer carries for a client of `clientVersion` (none when it is current). */
export function updateHeaders(mode: UpdateMode, clientVersion: string | undefined, serverVersion: string): Record<string, string> {
  if (mode === 'off' || !clientVersion || clientVersion.trim() === serverVersion.trim()) return {};
  if (mode === 'now') return { 'x-force-reload': '1' };
  return { 'x-update-required': mode === 'force' ? 'force' : '1' };
}
