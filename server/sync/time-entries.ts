import { sql } from 'kysely';
import { collections, timeTrackingChannel } from '../../schema/collections';
import { notificationChannel } from '../../schema/notifications';
import { timeTrackingSettings } from '../../schema/records';
import type { SaveContext } from './rules';
import type { WriteScope } from './scope';
import { storeSaved } from './operations';
import type { StoredRecord, WireRecord } from './store';

/**
 * Time-entry rules (workspace.md §4): starting an entry first ends the user's own running entries
 * for the same attribute — on any item when the attribute's allowParallel is false, on the same
 * item only when it is true. A start needs an item, an attribute and a description.
 */

/** True when this save starts a timer (a new running entry, or an ended one running again). */
export function isStart(record: Record<string, unknown>, existing: StoredRecord | null): boolean {
  return record.ended_at === null && (!existing || existing.data.ended_at !== null);
}

export function startProblems(record: Record<string, unknown>, existing: StoredRecord | null): string[] {
  const problems: string[] = [];
  if (isStart(record, existing)) {
    if (!record.item_id) problems.push('item_id: choose the item to track time on');
    if (!record.attribute_id) problems.push('attribute_id: choose the time-tracking attribute');
    if (typeof record.description !== 'string' || record.description.trim() === '') problems.push('description: describe what you are working on');
  }
  if (typeof record.ended_at === 'string' && Date.parse(record.ended_at) < Date.parse(String(record.started_at))) {
    problems.push('ended_at: an entry cannot end before it starts');
  }
  return problems;
}

/** Ends the user's running entries the new one replaces (each a normal save: version + 1, logged, broadcast). */
export async function endRunningEntries(ctx: SaveContext): Promise<void> {
  const { scope, record, existing, refs } = ctx;
  if (!isStart(record, existing)) return;
  const attribute = refs.get('attribute_id');
  const settings = timeTrackingSettings.safeParse(attribute?.data.settings ?? {});
  const allowParallel = settings.success ? settings.data.allowParallel : false;

  let query = scope.trx
    .selectFrom('records')
    .select(['collection', 'id', 'team_id', 'board_id', 'row_version', 'data', 'created_by', 'deleted_at'])
    .where('team_id', '=', scope.team.id)
    .where('collection', '=', 'time_entry')
    .where('created_by', '=', scope.userId)
    .where('id', '!=', String(record.id))
    .where(sql<boolean>`data->>'ended_at' is null`)
    .where(sql<string>`data->>'attribute_id'`, '=', String(record.attribute_id));
  if (allowParallel) query = query.where(sql<string>`data->>'item_id'`, '=', String(record.item_id));
  const running = await query.execute();

  const startedAt = String(record.started_at);
  for (const row of running) {
    const stored: StoredRecord = { ...row, data: row.data as WireRecord };
    // The old timer stops when the new one starts (never before it started itself).
    const endedAt = Date.parse(startedAt) >= Date.parse(String(stored.data.started_at)) ? startedAt : scope.now.toISOString();
    const ended: WireRecord = { ...stored.data, ended_at: endedAt, row_version: stored.row_version + 1, updated_at: scope.now.toISOString() };
    await storeSaved(scope, collections.time_entry, ended, stored);
  }
}

/** The realtime event name of a saved time entry (workspace.md §7). */
export const TIME_ENTRY_SAVED = 'TimeEntrySaved';

/**
 * The spec's TimeEntrySaved event, on the board's time-tracking channel (besides the board
 * channel's `saved`) and on its owner's personal channel `private-App.User.{id}`: the owner's other
 * devices learn of a timer started or stopped elsewhere even while that board is not open there.
 */
export function publishTimeEntry(scope: WriteScope, record: WireRecord): void {
  const payload = { collection: 'time_entry', data: record };
  scope.publish(timeTrackingChannel(scope.team.id, record.board_id), TIME_ENTRY_SAVED, payload);
  const owner = typeof record.created_by === 'number' ? record.created_by : null;
  if (owner !== null) scope.publish(notificationChannel(owner), TIME_ENTRY_SAVED, payload);
}
