import { sql } from 'kysely';
import type { Db, StoredRecord, WireRecord } from './store';

/**
 * What goes with a record when it is removed for good, so nothing is left pointing at a record
 * that no longer exists: an item's values, comments (and their reactions) and time entries; an
 * attribute's values; a comment's replies and reactions; a folder's subfolders and everything in
 * them; a board's whole content. Children come first in the returned list.
 */
export async function cascadeDelete(db: Db, parent: StoredRecord): Promise<StoredRecord[]> {
  switch (parent.collection) {
    case 'item':
      return itemChildren(db, parent.team_id, parent.board_id, [parent.id]);
    case 'attribute':
      return byField(db, parent.team_id, parent.board_id, ['value'], 'attribute_id', [parent.id]);
    case 'comment': {
      const replies = await byField(db, parent.team_id, parent.board_id, ['comment'], 'parent_id', [parent.id]);
      const ids = [parent.id, ...replies.map((r) => r.id)];
      const reactions = await byField(db, parent.team_id, parent.board_id, ['comment_reaction'], 'comment_id', ids);
      return [...reactions, ...replies];
    }
    case 'folder':
      return parent.data.parent_id === null ? boardContent(db, parent) : folderContent(db, parent);
    default:
      return [];
  }
}

async function byField(db: Db, teamId: number, boardId: string, collections: string[], field: string, ids: string[]): Promise<StoredRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('records')
    .select(['collection', 'id', 'team_id', 'board_id', 'row_version', 'data', 'created_by', 'deleted_at'])
    .where('team_id', '=', teamId)
    .where('board_id', '=', boardId)
    .where('collection', 'in', collections)
    .where(sql<string>`data->>${field}`, 'in', ids)
    .execute();
  return rows.map((r) => ({ ...r, data: r.data as WireRecord }));
}

async function itemChildren(db: Db, teamId: number, boardId: string, itemIds: string[]): Promise<StoredRecord[]> {
  const direct = await byField(db, teamId, boardId, ['value', 'comment', 'time_entry', 'button_click', 'doc_update'], 'item_id', itemIds);
  const commentIds = direct.filter((r) => r.collection === 'comment').map((r) => r.id);
  const reactions = await byField(db, teamId, boardId, ['comment_reaction'], 'comment_id', commentIds);
  return [...reactions, ...direct];
}

async function folderContent(db: Db, folder: StoredRecord): Promise<StoredRecord[]> {
  // Subfolders, level by level.
  const folderIds = [folder.id];
  const subfolders: StoredRecord[] = [];
  for (let level = [folder.id]; level.length > 0; ) {
    const found = await byField(db, folder.team_id, folder.board_id, ['folder'], 'parent_id', level);
    subfolders.push(...found);
    level = found.map((f) => f.id);
    folderIds.push(...level);
  }
  const contained = await byField(db, folder.team_id, folder.board_id, ['item', 'attribute', 'folder_view'], 'folder_id', folderIds);
  const items = contained.filter((r) => r.collection === 'item').map((r) => r.id);
  const attributes = contained.filter((r) => r.collection === 'attribute').map((r) => r.id);
  const children = await itemChildren(db, folder.team_id, folder.board_id, items);
  const values = (await byField(db, folder.team_id, folder.board_id, ['value'], 'attribute_id', attributes)).filter((v) => !children.some((c) => c.collection === 'value' && c.id === v.id));
  return [...children, ...values, ...contained, ...subfolders.reverse()];
}

async function boardContent(db: Db, board: StoredRecord): Promise<StoredRecord[]> {
  const rows = await db
    .selectFrom('records')
    .select(['collection', 'id', 'team_id', 'board_id', 'row_version', 'data', 'created_by', 'deleted_at'])
    .where('team_id', '=', board.team_id)
    .where('board_id', '=', board.id)
    .where((eb) => eb.not(eb.and([eb('collection', '=', 'folder'), eb('id', '=', board.id)])))
    .execute();
  return rows.map((r) => ({ ...r, data: r.data as WireRecord }));
}
