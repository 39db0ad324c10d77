import { nanoid } from 'nanoid';
import type { SyncRecord } from '../../../sync-worker/client';
import type { BoardBackend } from '../store/backend';
import type { Comment } from './use-comments';

/**
 * Comment writes through the board's backend: applied to the local replica at once and synced by
 * the engine (queued while offline), like every other write. Server-owned fields (created_by,
 * edited_at, user_id) are filled in here for the local copy only; the server sets its own.
 * Comments are not on the undo history: a comment is a message, taken back by deleting it.
 */
export class CommentCommands {
  constructor(
    private readonly backend: BoardBackend,
    private readonly teamId: number,
    private readonly boardId: string,
  ) {}

  get userId(): number | null {
    return this.backend.userId;
  }

  private async stored(collection: string, id: string): Promise<SyncRecord | null> {
    const row = (await this.backend.db.records.get([collection, id])) as (SyncRecord & { collection?: string }) | undefined;
    if (!row) return null;
    const { collection: _c, ...record } = row;
    return record as SyncRecord;
  }

  /** Writes a new comment (a reply when `parentId` is set); answers its id. */
  async add(itemId: string, html: string, parentId: string | null = null): Promise<string> {
    const id = nanoid();
    const record: SyncRecord = {
      id,
      row_version: 0,
      team_id: this.teamId,
      board_id: this.boardId,
      item_id: itemId,
      parent_id: parentId,
      text: { html },
      pinned: false,
      created_by: this.userId,
      created_at: new Date().toISOString(),
      edited_at: null,
    };
    await this.backend.save('comment', record, { teamId: this.teamId });
    return id;
  }

  async edit(comment: Comment, html: string): Promise<void> {
    const current = await this.stored('comment', comment.id);
    if (!current || (current.text as { html?: string } | undefined)?.html === html) return;
    await this.backend.save('comment', { ...current, text: { html }, edited_at: new Date().toISOString() }, { teamId: this.teamId });
  }

  async setPinned(comment: Comment, pinned: boolean): Promise<void> {
    const current = await this.stored('comment', comment.id);
    if (!current || Boolean(current.pinned) === pinned) return;
    await this.backend.save('comment', { ...current, pinned }, { teamId: this.teamId });
  }

  /** Removes a comment; the server removes its replies and reactions with it. */
  async remove(comment: Comment): Promise<void> {
    await this.backend.remove('comment', comment.id, { teamId: this.teamId });
  }

  /** Adds the viewer's reaction, or takes it back when `mine` is its record id. */
  async toggleReaction(commentId: string, reaction: string, mine: string | null): Promise<void> {
    if (mine) {
      await this.backend.remove('comment_reaction', mine, { teamId: this.teamId });
      return;
    }
    const record: SyncRecord = { id: nanoid(), row_version: 0, team_id: this.teamId, board_id: this.boardId, comment_id: commentId, reaction, ...(this.userId !== null ? { user_id: this.userId } : {}), created_at: new Date().toISOString() };
    await this.backend.save('comment_reaction', record, { teamId: this.teamId });
  }
}
