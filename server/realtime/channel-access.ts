import type { AppContext } from '../context';
import type { RoleOrGuest } from '../../schema/permissions';
import { memberRole } from '../workspaces/access';
import { loadTeam } from '../sync/access';
import { ReadView } from '../sync/reads';
import { boardPasswordHash } from '../board-access/passwords';

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

const TEAM = '([1-9]\\d{0,9})';
/** Team ids are PostgreSQL integers; anything larger is no team (and must not reach a query). */
const isTeamId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;
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
  private readonly roles = new Map<number, Promise<RoleOrGuest>>();
  private readonly views = new Map<number, Promise<ReadView | null>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly userId: number,
  ) {}

  /** The workspaces module's role lookup: owner or a verified member (pending invitees are guests). */
  private role(teamId: number): Promise<RoleOrGuest> {
    let known = this.roles.get(teamId);
    if (!known) {
      known = memberRole(this.ctx, this.userId, teamId);
      this.roles.set(teamId, known);
    }
    return known;
  }

  async isMember(teamId: number): Promise<boolean> {
    if (!isTeamId(teamId)) return false;
    return (await this.role(teamId)) !== 'guest';
  }

  /**
   * VIEW_BOARD through the sync module's read rules (the permission model over workspace →
   * board entries, members, hidden and public boards): the same answer its index loads give.
   */
  async canViewBoard(teamId: number, boardId: string): Promise<boolean> {
    if (!isTeamId(teamId)) return false;
    const view = await this.view(teamId);
    if (!view || !view.boardExists(boardId) || !view.canViewFolder(boardId)) return false;
    // A password-protected board's live events are for members only (channel auth carries no board password).
    return (await this.role(teamId)) !== 'guest' || (await boardPasswordHash(this.ctx, boardId)) === null;
  }

  private view(teamId: number): Promise<ReadView | null> {
    let known = this.views.get(teamId);
    if (!known) {
      known = (async () => {
        const team = await loadTeam(this.ctx.db, teamId);
        if (!team) return null;
        const role = await this.role(teamId);
        return ReadView.open(this.ctx.db, team, { id: this.userId, role });
      })();
      this.views.set(teamId, known);
    }
    return known;
  }
}
