import { z } from 'zod';

/**
 * Board jobs on the wire (decision 0160): imports, exports, duplication and moves that run in the
 * background with a progress record. Shared by the server (server/board-jobs) and the app's tray
 * (src/board-jobs).
 */

export const BOARD_JOB_STATES = ['queued', 'running', 'cancelling', 'cancelled', 'done', 'failed'] as const;
export type BoardJobState = (typeof BOARD_JOB_STATES)[number];

/** States after which nothing changes any more. */
export const FINISHED_JOB_STATES: readonly BoardJobState[] = ['cancelled', 'done', 'failed'];
export const isFinishedJob = (state: string) => (FINISHED_JOB_STATES as readonly string[]).includes(state);

/** One problem a job met: a row it skipped or a cell it left empty, and why. */
export interface BoardJobProblem {
  /** 1-based row of the source (the header is row 1 of a CSV with a header). */
  row?: number;
  column?: string;
  message: string;
}

/** At most this many problems are kept on a job (error_count counts them all). */
export const BOARD_JOB_MAX_PROBLEMS = 200;

/** A job as GET /api/me/board-jobs and GET /api/{teamId}/board-jobs/{id} answer it. */
export interface BoardJob {
  id: string;
  team_id: number;
  board_id: string;
  user_id: number;
  /** import.csv, board.duplicate, board.move, … */
  kind: string;
  state: BoardJobState;
  /** queued, parsing, writing, cleaning, done… (the app translates the known ones). */
  phase: string;
  done: number;
  total: number;
  errors: BoardJobProblem[];
  error_count: number;
  /** Why it failed (failed jobs only). */
  error: string | null;
  /** What it made: an import's {board_id, folder_id, items, skipped}. */
  result: Record<string, unknown> | null;
  /** Name of what it works on, for the tray (the file, the board). */
  title: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  /** A queued job kept waiting by the limits on heavy work (phase `waiting`): its place in the line, 1 = next. */
  place?: number;
}

/** The most items a board moved to another workspace may hold (decision 0227). */
export const MOVE_TARGET_MAX_ITEMS = 100_000;

export const BoardJobMessages = {
  cancelled: 'The job was cancelled; nothing it wrote was kept.',
  notCancellable: 'This job has finished and cannot be cancelled.',
  /** The spec's "a folder chosen for a move may not hold more than a limit of items". */
  moveTargetFull: (max: number) => `The workspace chosen for the move may not hold a board of more than ${max} items.`,
  sameWorkspace: 'team_id: the board is already in this workspace',
  moveUnderWay: 'This board is already being moved.',
  /** N3: a board holding folders, views or entries the mover may not read moves only by the workspace's owner. */
  moveHoldsHidden: 'This board holds folders or records you cannot see: only the workspace owner can move it.',
} as const;

export const boardJobIdParam = z.string().regex(/^bj[A-Za-z0-9]{10,40}$/, 'a board job id');
