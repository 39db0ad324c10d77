import type { Notification } from '../../schema/notifications';
import { readableNames } from '../sync/readable-names';
import type { Db } from '../sync/store';

/**
 * A notification keeps the names it was made with (item, board, attribute, form, a comment's
 * words). Whenever one is shown again — the list, a mark's answer, the mail, a push — it is judged
 * by the read rule NOW (issue #11): about an item the user can no longer read (hidden since, in
 * the trash, removed) it shows none of them; about a board they can no longer view, neither.
 * Ids stay (the app still opens the target, which then says it cannot be shown).
 */
export async function judgeNames(db: Db, userId: number, list: Notification[]): Promise<Notification[]> {
  const judged = list.filter((n) => n.team_id !== null && (n.item_id !== null || n.board_id !== null));
  if (judged.length === 0) return list;
  const names = await readableNames(db, userId, judged.map((n) => ({ team_id: n.team_id, board_id: n.board_id, item_id: n.item_id })));
  return list.map((n) => {
    if (n.team_id === null) return n;
    const itemGone = n.item_id !== null && !names.items.has(n.item_id);
    const boardGone = n.board_id !== null && !names.boards.has(n.board_id);
    if (!itemGone && !boardGone) return n;
    return { ...n, item_name: null, attribute_name: null, form_name: null, body: null, ...(boardGone ? { board_name: null } : {}) };
  });
}
