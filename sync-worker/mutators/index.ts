/**
 * Every named mutator, by the name tabs call it with (`api.apply(name, args)`), decision 0100.
 * Mutators are pure functions over a MutationTx (transaction.ts); the engine runs one per user
 * action in one Dexie transaction and queues one request for it.
 */
import { createItem, createRecords, deleteRecords, duplicateItems, moveCard, moveFolder, moveItems, reorder, setItemValues, setValues, updateRecord } from './board';
import { revert } from './revert';
import { startTimer, stopTimer } from './time';
import type { Mutator } from './transaction';

export const mutators = {
  createRecords,
  updateRecord,
  createItem,
  setValues,
  setItemValues,
  moveCard,
  moveItems,
  reorder,
  moveFolder,
  duplicateItems,
  deleteRecords,
  revert,
  startTimer,
  stopTimer,
} satisfies Record<string, Mutator<never>>;

export type MutatorName = keyof typeof mutators;
export type MutatorArgs<N extends MutatorName> = Parameters<(typeof mutators)[N]>[1];

export function mutatorNamed(name: string): Mutator<unknown> {
  if (!Object.prototype.hasOwnProperty.call(mutators, name)) throw new Error(`Unknown action: ${name}`);
  return mutators[name as MutatorName] as Mutator<unknown>;
}

export { BufferedTx, MutationError, valuesSignature, type BufferedWrite, type MutationReader, type MutationTx, type Mutator, type ReadSet } from './transaction';
export type { NewRecord, PositionUpdate } from './board';

/** What an action answers: the before- and after-image of every record it changed (for undo). */
export interface ApplyResult {
  entries: import('../undo').HistoryEntry[];
  /** The browser refused to store it (quota): held in memory and retried, not undoable. */
  held?: boolean;
}
