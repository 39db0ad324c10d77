/**
 * Undo and redo of one's own recent edits (Ctrl+Z, Ctrl+Shift+Z). Pure: the history keeps the
 * steps the user made (the before- and after-images an action answered, decision 0100), and
 * `planInverse` plans the writes that take one back. The inverse runs as an action of its own
 * (the `revert` mutator): one Dexie transaction in the worker, one request, like any edit — so it
 * is optimistic, queued offline, synced, and lands whole or not at all.
 *
 * Rules:
 *  - Only the user's own edits are recorded (the caller records what the action answered).
 *  - Undo restores only the fields the edit changed, and only while they still hold the edited
 *    value: if someone else changed a field since, that field is left alone (their edit wins; we
 *    never overwrite other people's work with an old copy).
 *  - A step may hold many records (a bulk edit, a move of several items) and is undone as one.
 *  - A new edit clears the redo stack. The stack keeps the last `limit` steps.
 */
import { sameValue } from '../schema/same-value';
import { SERVER_STAMPED_FIELDS } from '../schema/server-stamps';

export interface HistoryRecord {
  id: string;
  row_version: number;
  [field: string]: unknown;
}

/** One record's change: before null = it was created; after null = it was deleted (trashed). */
export interface HistoryEntry {
  collection: string;
  id: string;
  before: HistoryRecord | null;
  after: HistoryRecord | null;
  /**
   * The record never reached the server (its create was still queued when it was deleted): a
   * later undo creates it anew instead of asking the server's trash for it.
   */
  unsynced?: boolean;
}

export interface HistoryStep {
  label: string;
  entries: HistoryEntry[];
}

/** A write that undoes or redoes an entry. */
export type UndoWrite =
  | { kind: 'save'; collection: string; record: HistoryRecord }
  | { kind: 'delete'; collection: string; id: string }
  /** Bring back a deleted record: restore it from trash, or (never synced) save `record` anew. */
  | { kind: 'restore'; collection: string; id: string; record: HistoryRecord; unsynced?: boolean };

/**
 * Fields that are bookkeeping, never restored by an undo: what the server stamps on each save
 * (schema/server-stamps.ts), the trash mark (undo restores from trash as its own write), the
 * workspace and the creator.
 */
const IGNORED = new Set<string>([...SERVER_STAMPED_FIELDS, 'deleted_at', 'team_id', 'created_by']);

/** The fields an edit changed (one value equality for the whole app: schema/same-value.ts). */
export function changedFields(before: HistoryRecord, after: HistoryRecord): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => !IGNORED.has(k) && !sameValue(before[k], after[k]));
}

/**
 * Plans the writes that turn `from` back into `to` for one entry, given the current local copy
 * (null when the record is not there, e.g. trashed). Returns null when nothing can be done.
 */
export function planRevert(entry: { collection: string; id: string; unsynced?: boolean }, from: HistoryRecord | null, to: HistoryRecord | null, current: HistoryRecord | null): UndoWrite | null {
  if (from === null && to !== null) {
    // Undoing a delete (or redoing a create): bring it back.
    if (current) return null;
    return { kind: 'restore', collection: entry.collection, id: entry.id, record: to, ...(entry.unsynced ? { unsynced: true } : {}) };
  }
  if (to === null) {
    // Undoing a create (or redoing a delete): remove it if it is still there.
    return current ? { kind: 'delete', collection: entry.collection, id: entry.id } : null;
  }
  if (!current || from === null) return null;
  const fields = changedFields(from, to);
  const patch: Record<string, unknown> = {};
  for (const field of fields) {
    // Someone changed it since: their value stays.
    if (!sameValue(current[field], from[field])) continue;
    patch[field] = to[field];
  }
  if (Object.keys(patch).length === 0) return null;
  return { kind: 'save', collection: entry.collection, record: { ...current, ...patch } };
}

/**
 * The writes that turn a step's records back into their `to` images (undo: 'before', redo:
 * 'after'), planned against the current copies; undo goes last entry first.
 */
export async function planInverse(
  entries: HistoryEntry[],
  to: 'before' | 'after',
  current: (collection: string, id: string) => Promise<HistoryRecord | null>,
): Promise<UndoWrite[]> {
  const ordered = to === 'before' ? [...entries].reverse() : entries;
  const writes: UndoWrite[] = [];
  for (const entry of ordered) {
    const from = to === 'before' ? entry.after : entry.before;
    const target = to === 'before' ? entry.before : entry.after;
    const write = planRevert(entry, from, target, await current(entry.collection, entry.id));
    if (write) writes.push(write);
  }
  return writes;
}

/**
 * After a step's inverse ran: which of its records are now only local. A delete that dropped a
 * still-queued create leaves nothing on the server, so the next redo/undo creates it anew; a
 * record brought back is known to the server again (or will be).
 */
export function noteUndone(step: HistoryStep, answered: HistoryEntry[]): void {
  for (const a of answered) {
    const entry = step.entries.find((e) => e.collection === a.collection && e.id === a.id);
    if (!entry) continue;
    if (a.after === null) entry.unsynced = a.unsynced === true;
    else if (a.before === null) entry.unsynced = false;
  }
}

export class UndoHistory {
  private undoStack: HistoryStep[] = [];
  private redoStack: HistoryStep[] = [];
  private listeners = new Set<() => void>();

  constructor(private readonly limit = 100) {}

  get canUndo(): boolean {
    return this.undoStack.length > 0;
  }
  get canRedo(): boolean {
    return this.redoStack.length > 0;
  }
  get nextUndo(): HistoryStep | null {
    return this.undoStack[this.undoStack.length - 1] ?? null;
  }
  get nextRedo(): HistoryStep | null {
    return this.redoStack[this.redoStack.length - 1] ?? null;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Records a step the user just made (their own edit). */
  record(step: HistoryStep): void {
    const entries = step.entries.filter((e) => e.before !== null || e.after !== null);
    if (entries.length === 0) return;
    this.undoStack.push({ ...step, entries });
    if (this.undoStack.length > this.limit) this.undoStack.shift();
    this.redoStack = [];
    this.emit();
  }

  /** Takes the last step off the undo stack (onto the redo stack); the caller applies its inverse. */
  takeUndo(): HistoryStep | null {
    const step = this.undoStack.pop();
    if (!step) return null;
    this.redoStack.push(step);
    this.emit();
    return step;
  }

  /** Takes the last undone step off the redo stack (back onto the undo stack). */
  takeRedo(): HistoryStep | null {
    const step = this.redoStack.pop();
    if (!step) return null;
    this.undoStack.push(step);
    this.emit();
    return step;
  }

  clear(): void {
    this.undoStack = [];
    this.redoStack = [];
    this.emit();
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}
