import { nanoid } from 'nanoid';
import type { BoardBackend } from '../store/backend';
import { entriesToEnd, type TimeAttribute, type TimeEntry } from './time-model';

/**
 * Time-entry writes through the board's backend: applied to the replica at once and synced by the
 * engine (queued while offline) like every other write. A start is one action that also ends the
 * running entries it replaces (sync-worker/mutators/time.ts). Entries are not on the undo history.
 */
export class TimeCommands {
  constructor(
    private readonly backend: BoardBackend,
    private readonly teamId: number,
    private readonly boardId: string,
  ) {}

  /** Starts the user's timer on an item's time-tracking attribute; answers the new entry's id. */
  async start(itemId: string, attribute: TimeAttribute, description: string, now = new Date()): Promise<string> {
    const userId = this.backend.userId;
    if (userId === null) throw new Error('Sign in to track time.');
    const onBoard = (await this.backend.db.records.where('[collection+board_id]').equals(['time_entry', this.boardId]).toArray()) as unknown as TimeEntry[];
    const startedAt = now.toISOString();
    const entry = {
      id: nanoid(),
      row_version: 0,
      team_id: this.teamId,
      board_id: this.boardId,
      item_id: itemId,
      attribute_id: attribute.id,
      description: description.trim(),
      started_at: startedAt,
      ended_at: null,
      created_by: userId,
      created_at: startedAt,
    };
    await this.backend.apply('startTimer', { entry, endIds: entriesToEnd(onBoard, attribute, itemId, userId) }, { teamId: this.teamId });
    return entry.id;
  }

  async stop(entry: TimeEntry, now = new Date()): Promise<void> {
    await this.backend.apply('stopTimer', { id: entry.id, endedAt: now.toISOString() }, { teamId: this.teamId });
  }

  /** Changes an own entry's description or times (the caller checked that it ends after it starts). */
  async edit(entry: TimeEntry, patch: Partial<Pick<TimeEntry, 'description' | 'started_at' | 'ended_at'>>): Promise<void> {
    await this.backend.apply('updateRecord', { collection: 'time_entry', id: entry.id, patch }, { teamId: this.teamId });
  }

  async remove(entry: TimeEntry): Promise<void> {
    await this.backend.apply('deleteRecords', { collection: 'time_entry', ids: [entry.id] }, { teamId: this.teamId });
  }
}
