import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import type { TeamRow } from './access';
import type { RoleOrGuest } from '../../schema/permissions';

/** The shapes these endpoints answer with (workspace.md §3). Documented in docs/api/workspaces.md. */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export interface TeamView {
  id: number;
  name: string;
  owner_id: number;
  user_role: RoleOrGuest;
  subscription_id: number | null;
  member_count: number;
  photo_url: string | null;
  use_custom_logo: boolean;
  whitelabel_settings: Record<string, unknown> | null;
  domain: string | null;
  row_version: number;
  created_at: string;
  updated_at: string;
  /** Set by GET /api/teams/{id}: why the workspace is read-only (server/billing/read-only.ts), or null. */
  read_only?: 'trial_expired' | 'expired' | null;
}

export function teamView(team: TeamRow, userRole: RoleOrGuest, memberCount: number): TeamView {
  return {
    id: team.id,
    name: team.name,
    owner_id: team.owner_id,
    user_role: userRole,
    subscription_id: team.subscription_id,
    member_count: memberCount,
    photo_url: team.photo_url,
    use_custom_logo: team.use_custom_logo,
    whitelabel_settings: (team.whitelabel_settings ?? null) as Record<string, unknown> | null,
    domain: team.domain,
    row_version: team.row_version,
    created_at: iso(team.created_at)!,
    updated_at: iso(team.updated_at)!,
  };
}

/** Verified members (pending invitations are not counted as members). */
export async function verifiedMemberCount(db: Kysely<Database>, teamId: number): Promise<number> {
  const row = await db
    .selectFrom('team_members')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('team_id', '=', teamId)
    .where('verified_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface MemberView {
  id: number;
  name: string;
  email: string;
  photo_url: string | null;
  /** Members are never guests; the flag exists because the client's user type has it. */
  guest: false;
  pivot: { role: string; verified: boolean; verified_at: string | null; invited_by: number | null; created_at: string };
}

export interface MemberRow {
  id: number;
  name: string;
  email: string;
  photo_url: string | null;
  role: string;
  verified_at: Date | null;
  invited_by: number | null;
  member_since: Date;
}

export function memberView(row: MemberRow): MemberView {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    photo_url: row.photo_url,
    guest: false,
    pivot: { role: row.role, verified: row.verified_at !== null, verified_at: iso(row.verified_at), invited_by: row.invited_by, created_at: iso(row.member_since)! },
  };
}

/** Members of a team joined with their user rows; `pending` picks invitees instead of members. */
export function memberRows(db: Kysely<Database>, teamId: number, opts: { pending?: boolean; userId?: number } = {}) {
  let query = db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .select([
      'users.id as id',
      'users.name as name',
      'users.email as email',
      'users.photo_url as photo_url',
      'team_members.role as role',
      'team_members.verified_at as verified_at',
      'team_members.invited_by as invited_by',
      'team_members.created_at as member_since',
    ])
    .where('team_members.team_id', '=', teamId);
  if (opts.pending !== undefined) query = query.where('team_members.verified_at', opts.pending ? 'is' : 'is not', null);
  if (opts.userId !== undefined) query = query.where('team_members.user_id', '=', opts.userId);
  return query.orderBy('team_members.created_at').orderBy('users.id');
}
