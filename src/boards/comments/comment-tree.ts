/**
 * How an item's comments are laid out (pure, for tests): pinned threads first, then the others
 * newest first (as monday.com shows updates), each with its replies oldest first underneath, the
 * way a conversation reads. Reactions are grouped per emoji with who reacted.
 */

export interface CommentLike {
  id: string;
  parent_id?: string | null;
  created_at?: string | null;
  pinned?: boolean | null;
  deleted_at?: string | null;
}

export interface ReactionLike {
  id: string;
  comment_id: string;
  reaction: string;
  user_id?: number | null;
  created_at?: string | null;
}

export interface Thread<C extends CommentLike> {
  comment: C;
  replies: C[];
}

export interface CommentLayout<C extends CommentLike> {
  pinned: Thread<C>[];
  threads: Thread<C>[];
}

/** Oldest first by created_at; a comment written on this device and not yet stamped counts as now. */
function byTime(a: CommentLike, b: CommentLike): number {
  const x = a.created_at ?? '\uffff';
  const y = b.created_at ?? '\uffff';
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Threads of an item's comments. A reply whose parent is gone is not shown: the server removes a
 * deleted comment's replies with it, and the replica learns of that a moment after the delete.
 * A reply to a reply hangs under the top comment of its thread (one level, as the UI shows).
 */
export function layoutComments<C extends CommentLike>(comments: readonly C[]): CommentLayout<C> {
  const live = comments.filter((c) => !c.deleted_at);
  const byId = new Map(live.map((c) => [c.id, c]));
  const topOf = (c: C): C | null => {
    const seen = new Set<string>();
    let current: C | undefined = c;
    while (current && current.parent_id) {
      if (seen.has(current.id)) return null;
      seen.add(current.id);
      current = byId.get(current.parent_id);
    }
    return current ?? null;
  };
  const threads = new Map<string, Thread<C>>();
  for (const c of live) if (!c.parent_id) threads.set(c.id, { comment: c, replies: [] });
  for (const c of live) {
    if (!c.parent_id) continue;
    const top = topOf(c);
    if (top) threads.get(top.id)?.replies.push(c);
  }
  const all = [...threads.values()];
  for (const thread of all) thread.replies.sort(byTime);
  all.sort((a, b) => byTime(b.comment, a.comment));
  return { pinned: all.filter((t) => t.comment.pinned), threads: all.filter((t) => !t.comment.pinned) };
}

export interface ReactionSummary {
  reaction: string;
  count: number;
  userIds: number[];
  /** The viewer's own reaction record with this emoji, to take it back. */
  mine: string | null;
}

/** One comment's reactions per emoji, in the order each emoji was first used. */
export function summarizeReactions(reactions: readonly ReactionLike[], viewerId: number | null): ReactionSummary[] {
  const ordered = [...reactions].sort((a, b) => byTime(a as CommentLike, b as CommentLike));
  const groups = new Map<string, ReactionSummary>();
  for (const r of ordered) {
    let group = groups.get(r.reaction);
    if (!group) groups.set(r.reaction, (group = { reaction: r.reaction, count: 0, userIds: [], mine: null }));
    // One per user and emoji (the server refuses a second); a duplicate from two offline devices counts once.
    if (r.user_id != null && group.userIds.includes(r.user_id)) continue;
    group.count += 1;
    if (r.user_id != null) group.userIds.push(r.user_id);
    if (viewerId !== null && r.user_id === viewerId && group.mine === null) group.mine = r.id;
  }
  return [...groups.values()];
}

/** Reactions grouped by comment id. */
export function reactionsByComment<R extends ReactionLike>(reactions: readonly R[]): Map<string, R[]> {
  const map = new Map<string, R[]>();
  for (const r of reactions) {
    const list = map.get(r.comment_id);
    if (list) list.push(r);
    else map.set(r.comment_id, [r]);
  }
  return map;
}
