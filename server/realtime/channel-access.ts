import type { Kysely } from 'kysely';
import type { Database } from '../db/types';

/**
 * Who may subscribe to which realtime channel. Every channel Cairn uses is listed here; any
 * other name is refused. Checks get one `AccessChecker` so a multi-auth request asking for many
 * channels of the same team looks each fact up once.
 */

export interface ChannelGrant {
  /** Presence channels also get the member data the server shows to others. */
  presence: boolean;
}

interface Rule {
  pattern: RegExp;
  presence?: boolean;
  allow(check: AccessChecker, userId: number, groups: string[]): Promise<boolean>;
}

const TEAM = '(\\d+)';
const BOARD = '([A-Za-z0-9_-]+)';

const rules: Rule[] = [
  { pattern: new RegExp(`^private-team\\.${TEAM}\\.users$`), allow: (c, _u, [team]) => c.isMember(Number(team)) },
  { pattern: new RegExp(`^private-team\\.${TEAM}\\.permissions$`), allow: (c, _u, [team]) => c.isMember(Number(team)) },
  { pattern: /^private-App\.User\.(\d+)$/, allow: async (_c, userId, [id]) => Number(id) === userId },
  { pattern: new RegExp(`^private-user\\.${TEAM}\\.${BOARD}\\.timeTracking$`), allow: (c, _u, [team, board]) => c.canViewBoard(Number(team), board!) },
  { pattern: new RegExp(`^private-team\\.${TEAM}\\.board\\.${BOARD}$`), allow: (c, _u, [team, board]) => c.canViewBoard(Number(team), board!) },
  // Who else is looking at a board (presence list in the board header).
  { pattern: new RegExp(`^presence-team\\.${TEAM}\\.board\\.${BOARD}$`), presence: true, allow: (c, _u, [team, board]) => c.canViewBoard(Number(team), board!) },
];

/** The grant for a channel, or null when the user may not subscribe to it. */
export async function grantFor(check: AccessChecker, userId: number, channel: string): Promise<ChannelGrant | null> {
  for (const rule of rules) {
    const match = rule.pattern.exec(channel);
    if (!match) continue;
    const ok = await rule.allow(check, userId, match.slice(1));
    return ok ? { presence: rule.presence ?? false } : null;
  }
  return null;
}

/** Membership and board-view facts for one user, memoised for the life of one request. */
export class AccessChecker {
  private readonly memberOf = new Map<number, Promise<boolean>>();
  private readonly boards = new Map<string, Promise<boolean>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly userId: number,
  ) {}

  isMember(teamId: number): Promise<boolean> {
    if (!Number.isSafeInteger(teamId)) return Promise.resolve(false);
    let known = this.memberOf.get(teamId);
    if (!known) {
      known = isTeamMember(this.db, teamId, this.userId);
      this.memberOf.set(teamId, known);
    }
    return known;
  }

  canViewBoard(teamId: number, boardId: string): Promise<boolean> {
    const key = `${teamId}/${boardId}`;
    let known = this.boards.get(key);
    if (!known) {
      known = canViewBoard(this.db, teamId, boardId, this.userId, () => this.isMember(teamId));
      this.boards.set(key, known);
    }
    return known;
  }
}

/** The owner, or a member whose invitation is accepted (a pending invitation is not membership). */
export async function isTeamMember(db: Kysely<Database>, teamId: number, userId: number): Promise<boolean> {
  const team = await db.selectFrom('teams').select('owner_id').where('id', '=', teamId).executeTakeFirst();
  if (!team) return false;
  if (team.owner_id === userId) return true;
  const member = await db
    .selectFrom('team_members')
    .select('verified_at')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Boolean(member?.verified_at);
}

/**
 * VIEW_BOARD on a board of a team. Until the sync module exports its board-view check this is:
 * the board exists in that team (a root folder record) and the user is a member of the team.
 * Keep this the only place that answers the question, so switching to the full permission model
 * is one edit.
 */
async function canViewBoard(db: Kysely<Database>, teamId: number, boardId: string, _userId: number, isMember: () => Promise<boolean>): Promise<boolean> {
  if (!Number.isSafeInteger(teamId)) return false;
  if (!(await isMember())) return false;
  const board = await db
    .selectFrom('records')
    .select('id')
    .where('collection', '=', 'folder')
    .where('id', '=', boardId)
    .where('team_id', '=', teamId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Boolean(board);
}
