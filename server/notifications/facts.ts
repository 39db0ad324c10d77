import { findRecord, type Db } from '../sync/store';
import type { ItemAudience } from './audience';
import { userName } from './notify';

/** What every item notification says about where it happened and who did it (names as they are now). */
export async function itemFacts(db: Db, teamId: number, audience: ItemAudience, actorId: number | null) {
  const item = audience.item!;
  const board = await findRecord(db, 'folder', item.board_id);
  return {
    team_id: teamId,
    board_id: item.board_id,
    folder_id: typeof item.data.folder_id === 'string' ? item.data.folder_id : null,
    item_id: item.id,
    actor_id: actorId,
    created_by_name: await userName(db, actorId),
    board_name: typeof board?.data.name === 'string' ? board.data.name : null,
    item_name: typeof item.data.name === 'string' ? item.data.name : null,
  };
}
