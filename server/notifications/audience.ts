import type { RoleOrGuest } from '../../schema/permissions';
import { loadTeam, type TeamRow } from '../sync/access';
import { emptyReadContext, loadTeamFolders, ReadView, type TeamFolders } from '../sync/reads';
import { findRecord, type Db, type StoredRecord } from '../sync/store';

/**
 * Who may be told about an item: THE read rule (server/sync/reads.ts), asked for each would-be
 * recipient. A notification carries the item's and board's names and a comment's words, so it
 * goes only to people who could open the item today (never to someone a hidden folder keeps out).
 */
export class ItemAudience {
  private constructor(
    readonly team: TeamRow,
    /** The live item, or null when it is gone or in the trash (then nobody is told). */
    readonly item: StoredRecord | null,
    private readonly folders: TeamFolders,
    private readonly roles: Map<number, RoleOrGuest>,
  ) {}

  static async load(db: Db, teamId: number, itemId: string, userIds: number[]): Promise<ItemAudience | null> {
    const team = await loadTeam(db, teamId);
    if (!team) return null;
    const found = await findRecord(db, 'item', itemId);
    const item = found && found.team_id === teamId && found.deleted_at === null ? found : null;
    const folders = item ? await loadTeamFolders(db, teamId) : [];
    return new ItemAudience(team, item, folders, await rolesIn(db, team, userIds));
  }

  /** Whether this user may read the item now. */
  canRead(userId: number): boolean {
    if (!this.item) return false;
    const role = this.roles.get(userId) ?? 'guest';
    const view = new ReadView(this.team, { id: userId, role }, this.folders);
    return view.canRead('item', this.item.data, emptyReadContext());
  }

  /** The subset of the users who may read the item, in the order given. */
  readers(userIds: number[]): number[] {
    return userIds.filter((id) => this.canRead(id));
  }
}

/** Roles of many users in one team, one query (the rule of memberRole: owner, verified member, else guest). */
export async function rolesIn(db: Db, team: TeamRow, userIds: number[]): Promise<Map<number, RoleOrGuest>> {
  const roles = new Map<number, RoleOrGuest>();
  const others = [...new Set(userIds)].filter((id) => id !== team.owner_id);
  if (userIds.includes(team.owner_id)) roles.set(team.owner_id, 'owner');
  if (others.length === 0) return roles;
  const rows = await db.selectFrom('team_members').select(['user_id', 'role', 'verified_at']).where('team_id', '=', team.id).where('user_id', 'in', others).execute();
  for (const row of rows) if (row.verified_at) roles.set(row.user_id, row.role);
  return roles;
}
