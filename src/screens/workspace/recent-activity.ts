import type { ActivityEntry } from '../../boards/activity/activity-format';

/**
 * The workspace overview's "Recent activity" (pure, for tests): the newest entries of several
 * boards' logs merged into one list, each reduced to who, what kind of change, on what, where.
 */

export type RecentVerb = 'created' | 'updated' | 'trashed' | 'restored' | 'deleted' | 'commented';

export interface RecentLine {
  id: string;
  at: string;
  actorId: number | null;
  verb: RecentVerb;
  /** The item's (or board's, folder's) name as the event carries it; null when it names none. */
  subject: string | null;
  boardId: string | null;
  itemId: string | null;
}

const VERBS: readonly RecentVerb[] = ['created', 'updated', 'trashed', 'restored', 'deleted'];

function nameIn(record: Record<string, unknown> | null): string | null {
  const name = record?.name;
  return typeof name === 'string' && name.trim() ? name : null;
}

/** One line per event worth showing; views and reactions are noise on an overview. */
export function recentLine(entry: ActivityEntry, itemNames: ReadonlyMap<string, string>): RecentLine | null {
  const [prefix, action] = entry.type.split('.') as [string, string];
  if (!['item', 'value', 'comment', 'folder'].includes(prefix)) return null;
  const verb: RecentVerb | null = prefix === 'comment' && action === 'created' ? 'commented' : VERBS.includes(action as RecentVerb) ? (action as RecentVerb) : null;
  if (!verb) return null;
  // A value change is an update of its item.
  const shownVerb: RecentVerb = prefix === 'value' ? 'updated' : verb;
  const itemName = entry.item_id ? (itemNames.get(entry.item_id) ?? null) : null;
  const subject = prefix === 'item' || prefix === 'folder' ? (nameIn(entry.after) ?? nameIn(entry.before) ?? itemName) : itemName;
  return { id: entry.id, at: entry.created_at, actorId: entry.actor_id, verb: shownVerb, subject, boardId: entry.board_id, itemId: entry.item_id };
}

/**
 * Merges the boards' pages newest first, learning item names from the events that carry them
 * (item created/updated), and keeps `limit` lines. Consecutive edits of one item by one person
 * collapse into the newest.
 */
export function mergeRecent(pages: readonly (readonly ActivityEntry[])[], limit = 12): RecentLine[] {
  const entries = pages.flat().sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : Number(BigInt(b.id) - BigInt(a.id))));
  const itemNames = new Map<string, string>();
  for (const e of [...entries].reverse()) {
    if (e.collection === 'item' && e.item_id) {
      const name = nameIn(e.after) ?? nameIn(e.before);
      if (name) itemNames.set(e.item_id, name);
    }
  }
  const out: RecentLine[] = [];
  for (const entry of entries) {
    const line = recentLine(entry, itemNames);
    if (!line) continue;
    const last = out[out.length - 1];
    if (last && last.verb === 'updated' && line.verb === 'updated' && last.itemId !== null && last.itemId === line.itemId && last.actorId === line.actorId) continue;
    out.push(line);
    if (out.length >= limit) break;
  }
  return out;
}
