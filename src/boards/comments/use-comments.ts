import { useLiveQuery } from 'dexie-react-hooks';
import type { CommentReactionRecord, CommentRecord } from '../../../schema/records';
import { useBoardBackend } from '../store/backend';

export type Comment = CommentRecord & { collection?: string };
export type Reaction = CommentReactionRecord & { collection?: string };

/**
 * An item's comments and their reactions, live from the local replica: a comment written here
 * (online or not) is in the replica the moment the engine applies it, so it shows at once and
 * syncs later like every other write. Reactions have only a board index, so they are read per
 * board and kept to this item's comments.
 */
export function useItemComments(itemId: string, boardId: string): { comments: Comment[]; reactions: Reaction[] } | undefined {
  const { db } = useBoardBackend();
  return useLiveQuery(async () => {
    const comments = (await db.records.where('[collection+item_id]').equals(['comment', itemId]).toArray()) as unknown as Comment[];
    if (comments.length === 0) return { comments, reactions: [] };
    const ids = new Set(comments.map((c) => c.id));
    const reactions = ((await db.records.where('[collection+board_id]').equals(['comment_reaction', boardId]).toArray()) as unknown as Reaction[]).filter((r) => ids.has(r.comment_id));
    return { comments, reactions };
  }, [db, itemId, boardId]);
}
