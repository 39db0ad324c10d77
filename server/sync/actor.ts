import type { Transaction } from 'kysely';
import type { Database } from '../db/types';
import type { RoleOrGuest } from '../../schema/permissions';
import { loadTeamAndRole, type TeamRow } from './access';
import { loadTeamFolders, ReadView } from './reads';
import { WriteScope, type LockMode } from './scope';
import type { Db } from './store';

/**
 * The one write path of work that does not come from a request: automation runs, board jobs
 * (imports, duplicates, moves), form answers, template use, docs compaction and the demo seed.
 * Each names its ACTOR, the person it acts for, and writes through the scope built here: the
 * actor's role is read now, in the write's transaction (not when the rule or job was saved), and
 * every save is judged by the same permission code as a request's (saveRecord → scope.require,
 * schema/permission-chain.ts). Someone who left the workspace is a guest here and may write only
 * where a guest may. docs/permissions.md "Background work".
 */

export interface Actor {
  /** Whose permissions judge the writes. */
  userId: number;
  /** The author the writes are shown with, when not the actor (Autobot for automations). */
  shownAs?: number;
  /**
   * The abilities of the API token the work was started with (issue #26, N8), or null/absent for a
   * session: a job started through a token does no more than a request with that token, so a save
   * that sets who may see a folder needs its `admin` ability (server/sync/rules.ts).
   */
  tokenAbilities?: readonly string[] | null;
}

/** Where a board job keeps the abilities of the token it was started with (in its input, on the server). */
export const TOKEN_ABILITIES_KEY = 'token_abilities';

/** The input fields that carry a request's token abilities into a job (none for a session). */
export function startedWith(apiToken: { abilities: readonly string[] } | undefined): { token_abilities?: string[] } {
  return apiToken ? { [TOKEN_ABILITIES_KEY]: [...apiToken.abilities] } : {};
}

/** The token abilities a job's input carries, or null when a session started it. */
export function tokenAbilitiesOf(input: unknown): readonly string[] | null {
  const value = (input as Record<string, unknown> | null)?.[TOKEN_ABILITIES_KEY];
  return Array.isArray(value) ? value.filter((a): a is string => typeof a === 'string') : null;
}

export interface ActorScope {
  scope: WriteScope;
  team: TeamRow;
  /** The actor's role in the workspace now ('guest' when they left or were never a member). */
  role: RoleOrGuest;
}

/** The actor's write scope in `teamId`, or null when the workspace is gone. */
export async function writeAs(trx: Transaction<Database>, teamId: number, actor: Actor, now: Date, opts: { locked?: LockMode } = {}): Promise<ActorScope | null> {
  const found = await loadTeamAndRole(trx, teamId, actor.userId);
  if (!found) return null;
  const scope = new WriteScope(trx, found.team, { id: actor.userId, role: found.role, teamId: found.team.id }, now, { locked: opts.locked, shownAs: actor.shownAs });
  scope.tokenAbilities = actor.tokenAbilities ?? null;
  return { scope, team: found.team, role: found.role };
}

/** What the actor may read now (THE read rule, reads.ts): which items a run may touch or name. */
export async function readViewOf(db: Db, team: TeamRow, userId: number, role: RoleOrGuest): Promise<ReadView> {
  return new ReadView(team, { id: userId, role }, await loadTeamFolders(db, team.id));
}

/** Whether the item (a stored item record) is readable by the view: its board and folder are. */
export function canReadItem(view: ReadView, item: { board_id: string; data: Record<string, unknown> }): boolean {
  return view.canViewIn(String(item.data.folder_id ?? item.board_id), item.board_id);
}
