import { createContext, useContext } from 'react';
import type { ApplyResult, CairnDexie, MutatorArgs, MutatorName, SyncRecord } from '../../../sync-worker/client';
import type { PendingWrites } from './pending';

/**
 * What the board screens need from the sync engine, and nothing more. Screens read only through
 * `db` (the read-only Dexie handle, with useLiveQuery) and write only through these commands,
 * which the engine applies locally at once and syncs (DESIGN.md §1).
 *
 * Implementations: `worker-backend.ts` (the SharedWorker through the Comlink client, once it is
 * available) and `tab-backend.ts` (the same engine running in the tab; see docs/boards.md).
 */
export interface BoardBackend {
  /** The signed-in user; null for an anonymous visitor of a public board (read-only). */
  userId: number | null;
  /** A preview (pretend) tab's own engine (preview-backend.ts): edits stay in the tab, every permission is allowed. */
  preview?: boolean;
  db: CairnDexie;
  /** This tab's writes not yet in the replica, shown by the live hooks at once (pending.ts). */
  pending?: PendingWrites;
  /** Loads a board's records into the local database and follows its live changes. */
  openBoard(teamId: number, boardId: string): Promise<void>;
  /**
   * The workspace a board belongs to (the board route carries only the board id). `hint` is the
   * `team` query of a shared public link, used for anonymous visitors (docs/boards.md).
   */
  findBoardTeam(boardId: string, hint?: number | null): Promise<number | null>;
  /**
   * One user action: the named mutator runs in the engine as one transaction and goes out as one
   * request (decision 0100). Answers the before/after images of what it changed (for undo).
   */
  apply<N extends MutatorName>(name: N, args: MutatorArgs<N>, options?: { teamId?: number }): Promise<ApplyResult>;
  save(collection: string, record: SyncRecord, options?: { teamId?: number; transaction?: string | null }): Promise<SyncRecord | null>;
  /** Items, folders and attributes go to trash on the server; others are removed. */
  remove(collection: string, id: string, options?: { teamId?: number }): Promise<void>;
  /** Brings a trashed record back (online only). */
  restore(teamId: number, collection: string, id: string): Promise<void>;
  /** Deletes a trashed record for good (online only). */
  purge(teamId: number, collection: string, id: string): Promise<void>;
  /** The trash of a board, straight from the server (online only). */
  trash(teamId: number, boardId: string): Promise<{ collection: string; id: string; record: SyncRecord }[]>;
  /** The boards of a workspace the user may see, from the server (online). */
  listBoards(teamId: number): Promise<SyncRecord[]>;
  /** Sets a board's members (PUT /api/users). */
  setBoardMembers(boardId: string, userIds: number[]): Promise<void>;
  /** Told about conflicts (409) and refused writes, for the toasts. Returns an unsubscribe. */
  onProblem(listener: (problem: BackendProblem) => void): () => void;
  /**
   * Told what an action stored, by any tab, as soon as the engine committed it (decision 0295):
   * pending.ts shows these copies until the replica's own read has them. Returns an unsubscribe.
   */
  onWritten?(listener: (records: WrittenRecord[]) => void): () => void;
}

export interface WrittenRecord {
  collection: string;
  id: string;
  /** The record as stored; null: deleted. */
  record: SyncRecord | null;
}

export type BackendProblem =
  /** A field another user's save won (issue #30): named when the engine names it (item and field). */
  | { kind: 'conflict'; collection: string; id: string; field?: string | null; label?: { item: string | null; field: string | null } }
  | { kind: 'rejected'; collection: string; id: string; status: number; message: string };

export const BoardBackendContext = createContext<BoardBackend | null>(null);

export function useBoardBackend(): BoardBackend {
  const backend = useContext(BoardBackendContext);
  if (!backend) throw new Error('Board screens need a BoardBackendContext provider.');
  return backend;
}
