import { loadTeamAndRole } from './access';
import { emptyReadContext, loadTeamFolders, ReadView } from './reads';
import type { Db } from './store';

/**
 * The names a user may be shown today for items and boards that something of theirs points at
 * (a notification, a time entry): judged by THE read rule (reads.ts) now, not when the pointer was
 * made. An item in the trash, removed, or hidden from the user since has no name here; nor has a
 * board they can no longer view.
 */
export interface ReadableNames {
  items: Map<string, string>;
  boards: Map<string, string>;
}

export interface NameRef {
  team_id: number | null;
  board_id?: string | null;
  item_id?: string | null;
}

export async function readableNames(db: Db, userId: number, refs: readonly NameRef[]): Promise<ReadableNames> {
  const names: ReadableNames = { items: new Map(), boards: new Map() };
  const byTeam = new Map<number, { boards: Set<string>; items: Set<string> }>();
  for (const ref of refs) {
    if (ref.team_id === null) continue;
    let entry = byTeam.get(ref.team_id);
    if (!entry) byTeam.set(ref.team_id, (entry = { boards: new Set(), items: new Set() }));
    if (ref.board_id) entry.boards.add(ref.board_id);
    if (ref.item_id) entry.items.add(ref.item_id);
  }
  for (const [teamId, wanted] of byTeam) {
    const found = await loadTeamAndRole(db, teamId, userId);
    if (!found) continue;
    const folders = await loadTeamFolders(db, teamId);
    const view = new ReadView(found.team, { id: userId, role: found.role }, folders);
    for (const { folder, trashed } of folders) {
      if (wanted.boards.has(folder.id) && folder.id === folder.board_id && !trashed && view.canViewFolder(folder.id)) names.boards.set(folder.id, folder.name);
    }
    const ids = [...wanted.items];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await db
        .selectFrom('records')
        .select(['id', 'data', 'deleted_at'])
        .where('collection', '=', 'item')
        .where('team_id', '=', teamId)
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const row of rows) {
        const data = row.data as { name?: unknown };
        if (row.deleted_at === null && view.canRead('item', row.data as never, emptyReadContext())) names.items.set(row.id, typeof data.name === 'string' ? data.name : '');
      }
    }
  }
  return names;
}
