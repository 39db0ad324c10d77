/**
 * Time-tracking actions (workspace.md §4, time entry): a timer start ends the user's running
 * entries it replaces and saves the new one, as ONE action — offline too, so the replica shows the
 * old timer stopped the moment the new one starts, and the server receives both writes in one
 * transaction (its own rule, server/sync/time-entries.ts, then finds nothing left to end).
 */
import type { SyncRecord } from '../types';
import { MutationError, type Mutator } from './transaction';

export interface StartTimerArgs {
  /** The new running entry: id, board_id, item_id, attribute_id, description, started_at, created_by. */
  entry: SyncRecord;
  /** The user's running entries this start ends (the tab knows them: same attribute, any item or this item by allowParallel). */
  endIds: string[];
}

export const startTimer: Mutator<StartTimerArgs> = async (tx, { entry, endIds }) => {
  if (!entry.item_id) throw new MutationError('Choose the item to track time on.');
  if (!entry.attribute_id) throw new MutationError('Choose the time-tracking attribute.');
  if (typeof entry.description !== 'string' || entry.description.trim() === '') throw new MutationError('Describe what you are working on.');
  if (await tx.get('time_entry', entry.id)) throw new MutationError('The time entry exists already.');
  const startedAt = String(entry.started_at);
  for (const id of endIds) {
    const running = await tx.get('time_entry', id);
    if (!running || running.ended_at !== null) continue;
    // The old timer stops when the new one starts (never before it started itself).
    const endedAt = Date.parse(startedAt) >= Date.parse(String(running.started_at)) ? startedAt : String(running.started_at);
    tx.put('time_entry', { ...running, ended_at: endedAt });
  }
  tx.put('time_entry', { ...entry, description: entry.description.trim(), ended_at: null, row_version: 0 });
};

/** Stops a running entry (a no-op when it was stopped meanwhile, on this device or another). */
export const stopTimer: Mutator<{ id: string; endedAt: string }> = async (tx, { id, endedAt }) => {
  const running = await tx.get('time_entry', id);
  if (!running) throw new MutationError('The time entry is no longer there.');
  if (running.ended_at !== null) return;
  const end = Date.parse(endedAt) >= Date.parse(String(running.started_at)) ? endedAt : String(running.started_at);
  tx.put('time_entry', { ...running, ended_at: end });
};
