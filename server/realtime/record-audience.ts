import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import { parseEntryKey, type PermissionEntries, type RoleOrGuest } from '../../schema/permissions';
import type { TeamRow } from '../sync/access';
import { loadReadContext, loadTeamFolders, ReadView, type ReadContext, type TeamFolders } from '../sync/reads';
import type { WireRecord } from '../sync/store';

/**
 * Which readers a record event may reach (decision 0090). Board events carry records; a record
 * goes to a subscriber only when the read rule (ReadView.canRead, the rule of every read) lets
 * that subscriber read it. For one published batch the facts are loaded once — the team, its
 * folders, the subscribers' roles, the records' parents — and judged per subscriber in memory.
 */

/** A record event: on a board's record channel (saved, deleted) or its time-tracking channel. */
export interface RecordEvent {
  teamId: number;
  boardId: string;
  collection: string;
  record: WireRecord;
}

const BOARD_CHANNEL = /^private-team\.(\d+)\.board\.(.+)$/;
const TIME_TRACKING_CHANNEL = /^private-user\.(\d+)\.(.+)\.timeTracking$/;

/** The board a channel carries records of (record and time-tracking channels), or null. */
export function recordChannelOf(channel: string): { teamId: number; boardId: string; kind: 'board' | 'timeTracking' } | null {
  let m = BOARD_CHANNEL.exec(channel);
  if (m) return { teamId: Number(m[1]), boardId: m[2]!, kind: 'board' };
  m = TIME_TRACKING_CHANNEL.exec(channel);
  if (m) return { teamId: Number(m[1]), boardId: m[2]!, kind: 'timeTracking' };
  return null;
}

/** The record an event on a record channel carries ({collection, data: record}), or null. */
export function recordOf(channel: string, data: unknown): RecordEvent | null {
  const owner = recordChannelOf(channel);
  if (!owner) return null;
  const payload = (typeof data === 'string' ? safeParse(data) : data) as { collection?: unknown; data?: unknown } | null;
  if (!payload || typeof payload !== 'object' || typeof payload.collection !== 'string') return null;
  const record = payload.data as WireRecord | null;
  if (!record || typeof record !== 'object' || typeof record.id !== 'string') return null;
  return { teamId: owner.teamId, boardId: owner.boardId, collection: payload.collection, record };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * For each event, the user ids (of `userIds`) that may read its record. Events of another team
 * than `teamId`, of a missing team, or whose board is not the one the record names, reach nobody.
 */
export async function readersOf(db: Kysely<Database>, teamId: number, events: RecordEvent[], userIds: number[]): Promise<Set<number>[]> {
  const nobody = () => events.map(() => new Set<number>());
  if (events.length === 0 || userIds.length === 0) return nobody();
  const team = await db.selectFrom('teams').select(['id', 'owner_id', 'permissions']).where('id', '=', teamId).executeTakeFirst();
  if (!team) return nobody();
  const teamRow: TeamRow = { id: team.id, owner_id: team.owner_id, permissions: (team.permissions ?? {}) as PermissionEntries };
  const [folders, roles, contexts] = await Promise.all([loadTeamFolders(db, teamId), rolesOf(db, teamRow, userIds), contextsOf(db, teamId, events)]);
  return judge(teamRow, folders, roles, events, contexts);
}

/**
 * Readers whose id the rule never looks at answer alike when they have the same role: the rule
 * reads a user's id only through `user:` entries, member lists, creators (`:owner` entries) and the
 * record's own owner or author. So each such role is judged once, by one of them, and everyone
 * named anywhere on its own — 500 followers of a board cost a handful of judgements, not 500.
 */
function judge(team: TeamRow, folders: TeamFolders, roles: Map<number, RoleOrGuest>, events: RecordEvent[], contexts: Map<string, ReadContext>): Set<number>[] {
  const named = namedUsers(team, folders, events);
  const classes = new Map<string, number[]>();
  for (const [userId, role] of roles) {
    const key = named.has(userId) ? `user:${userId}` : `role:${role}`;
    const members = classes.get(key);
    if (members) members.push(userId);
    else classes.set(key, [userId]);
  }
  const out = events.map(() => new Set<number>());
  for (const members of classes.values()) {
    const judged = members[0]!;
    const view = new ReadView(team, { id: judged, role: roles.get(judged)! }, folders);
    events.forEach((event, i) => {
      if (event.teamId !== team.id || event.record.board_id !== event.boardId) return;
      if (view.canRead(event.collection, event.record, contexts.get(event.collection)!)) for (const userId of members) out[i]!.add(userId);
    });
  }
  return out;
}

/** Every user id the read rule could look at for these events. */
function namedUsers(team: TeamRow, folders: TeamFolders, events: RecordEvent[]): Set<number> {
  const named = new Set<number>([team.owner_id]);
  const addEntries = (entries: PermissionEntries | null | undefined) => {
    for (const key of Object.keys(entries ?? {})) {
      const parsed = parseEntryKey(key);
      if (parsed?.tokenType === 'user') named.add(Number(parsed.tokenValue));
    }
  };
  addEntries(team.permissions);
  for (const { folder } of folders) {
    addEntries(folder.permissions as PermissionEntries | undefined);
    for (const id of folder.user_ids ?? []) named.add(id);
    if (typeof folder.created_by === 'number') named.add(folder.created_by);
  }
  for (const { record } of events) {
    for (const field of ['owner_id', 'created_by', 'user_id'] as const) if (typeof record[field] === 'number') named.add(record[field] as number);
  }
  return named;
}

/** Roles as memberRole gives them: the owner, a verified member's role, anyone else a guest. */
async function rolesOf(db: Kysely<Database>, team: TeamRow, userIds: number[]): Promise<Map<number, RoleOrGuest>> {
  const roles = new Map<number, RoleOrGuest>(userIds.map((id) => [id, id === team.owner_id ? 'owner' : 'guest']));
  // Many followers: read the team's members (one index range) rather than bind hundreds of ids.
  let query = db.selectFrom('team_members').select(['user_id', 'role', 'verified_at']).where('team_id', '=', team.id);
  if (userIds.length <= 50) query = query.where('user_id', 'in', userIds);
  for (const row of await query.execute()) if (roles.has(row.user_id) && row.user_id !== team.owner_id && row.verified_at) roles.set(row.user_id, row.role as RoleOrGuest);
  return roles;
}

async function contextsOf(db: Kysely<Database>, teamId: number, events: RecordEvent[]): Promise<Map<string, ReadContext>> {
  const byCollection = new Map<string, WireRecord[]>();
  for (const e of events) {
    const list = byCollection.get(e.collection);
    if (list) list.push(e.record);
    else byCollection.set(e.collection, [e.record]);
  }
  const out = new Map<string, ReadContext>();
  await Promise.all([...byCollection].map(async ([collection, records]) => out.set(collection, await loadReadContext(db, teamId, collection, records))));
  return out;
}
