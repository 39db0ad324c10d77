import type { Selectable } from 'kysely';
import type { Database } from '../db/types';
import type { Db } from '../sync/store';
import { ApiError } from '../http/errors';
import { appendEvents, registerEventFloor } from '../events/outbox';
import { contentCounts, TEMPLATE_ID, TemplateMessages, type TemplateContent, type TemplateDetail, type TemplateSummary } from '../../schema/templates';
import { builtinContent, builtinSummary, findBuiltin, BUILTIN_FILES } from './builtin';
import { localiseTemplate } from './localise';
import { localeSettingOf, serverLocale } from '../i18n/catalogs';

/**
 * Custom templates in the database and who may see them (decision 0165):
 *   - built-in templates: everyone signed in;
 *   - a custom template: its owner; the members of each workspace it is shared with; and, when
 *     shared by link, anyone signed in who has its address.
 * Anything else is "not available or not shared" (404), so an id tells nothing about others' templates.
 */

export type TemplateRow = Selectable<Database['templates']>;

export const notAvailable = () => new ApiError(404, TemplateMessages.notAvailable, 'not_found');

export function templateIdParam(value: string): string {
  if (!TEMPLATE_ID.test(value)) throw notAvailable();
  return value;
}

/** The workspaces the user belongs to (owner or verified member). */
export async function teamsOf(db: Db, userId: number): Promise<number[]> {
  const [owned, joined] = await Promise.all([
    db.selectFrom('teams').select('id').where('owner_id', '=', userId).execute(),
    db.selectFrom('team_members').select('team_id').where('user_id', '=', userId).where('verified_at', 'is not', null).execute(),
  ]);
  return [...new Set([...owned.map((r) => r.id), ...joined.map((r) => r.team_id)])];
}

async function sharesOf(db: Db, templateIds: string[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  if (templateIds.length === 0) return out;
  const rows = await db.selectFrom('template_shares').select(['template_id', 'team_id']).where('template_id', 'in', templateIds).orderBy('team_id').execute();
  for (const row of rows) out.set(row.template_id, [...(out.get(row.template_id) ?? []), row.team_id]);
  return out;
}

async function ownerNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'name']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

const iso = (value: Date | string) => new Date(value).toISOString();

export async function summaries(db: Db, rows: TemplateRow[], viewerId: number): Promise<TemplateSummary[]> {
  const [shares, names] = await Promise.all([sharesOf(db, rows.map((r) => r.id)), ownerNames(db, rows.map((r) => r.owner_id))]);
  return rows.map((row) => summaryOf(row, row.owner_id === viewerId ? (shares.get(row.id) ?? []) : [], names.get(row.owner_id) ?? null));
}

function summaryOf(row: TemplateRow, sharedTeamIds: number[], ownerName: string | null): TemplateSummary {
  return {
    id: row.id,
    builtin: false,
    name: row.name,
    description: row.description,
    cover_url: row.cover_url,
    color: null,
    tags: row.tags,
    owner_id: row.owner_id,
    owner_name: ownerName,
    with_items: row.with_items,
    shared_team_ids: sharedTeamIds,
    link_shared: row.link_shared,
    counts: contentCounts(row.content),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** A custom template this user may open: theirs, shared with one of their workspaces, or shared by link. */
export async function visibleRow(db: Db, id: string, userId: number): Promise<TemplateRow | null> {
  const row = await db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  if (row.owner_id === userId || row.link_shared) return row;
  const teams = await teamsOf(db, userId);
  if (teams.length === 0) return null;
  const shared = await db.selectFrom('template_shares').select('team_id').where('template_id', '=', id).where('team_id', 'in', teams).executeTakeFirst();
  return shared ? row : null;
}

/** A template this user may open, with its content; 404 "not available or not shared" otherwise. */
export async function openTemplate(db: Db, id: string, userId: number): Promise<TemplateDetail> {
  const builtin = findBuiltin(id);
  if (builtin) {
    // A built-in's content comes in the reader's language (issue #16): the preview and the board made from it.
    const locale = serverLocale(await localeSettingOf(db, userId));
    return { ...builtinSummary(builtin), content: localiseTemplate(builtinContent(builtin), locale), mine: false };
  }
  const row = await visibleRow(db, id, userId);
  if (!row) throw notAvailable();
  const [summary] = await summaries(db, [row], userId);
  return { ...summary!, content: row.content, mine: row.owner_id === userId };
}

/** The caller's own template (edit, share, delete); 404 for anyone else's. */
export async function ownRow(db: Db, id: string, userId: number): Promise<TemplateRow> {
  const row = await db.selectFrom('templates').selectAll().where('id', '=', id).where('owner_id', '=', userId).executeTakeFirst();
  if (!row) throw notAvailable();
  return row;
}

/** The gallery: built-ins, the user's own and those shared with their workspaces; by tag and words. */
export async function gallery(db: Db, userId: number, filter: { tag?: string; q?: string }): Promise<TemplateSummary[]> {
  const teams = await teamsOf(db, userId);
  let query = db.selectFrom('templates').selectAll().where('owner_id', '=', userId);
  if (teams.length) query = db.selectFrom('templates').selectAll().where((eb) => eb.or([eb('owner_id', '=', userId), eb('id', 'in', eb.selectFrom('template_shares').select('template_id').where('team_id', 'in', teams))]));
  const rows = await query.orderBy('updated_at', 'desc').orderBy('id').limit(500).execute();
  const all = [...BUILTIN_FILES.map(builtinSummary), ...(await summaries(db, rows, userId))];
  const words = (filter.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return all.filter((t) => (!filter.tag || t.tags.includes(filter.tag)) && words.every((w) => `${t.name} ${t.description} ${t.tags.join(' ')}`.toLowerCase().includes(w)));
}

/**
 * Shares the template with workspaces and records a `template.shared` event per workspace that
 * is new to it; the notifications consumer tells that workspace's members (decision 0165).
 * Workspaces already in the list are left as they are (no second notification).
 */
export async function addShares(trx: Db, row: TemplateRow, teamIds: number[], actorId: number, now: Date): Promise<number[]> {
  if (teamIds.length === 0) return [];
  const inserted = await trx
    .insertInto('template_shares')
    .values(teamIds.map((team_id) => ({ template_id: row.id, team_id, shared_by: actorId, created_at: now })))
    .onConflict((oc) => oc.columns(['template_id', 'team_id']).doNothing())
    .returning('team_id')
    .execute();
  if (inserted.length === 0) return [];
  await registerEventFloor(trx);
  await appendEvents(
    trx,
    inserted.map(({ team_id }) => ({ team_id, board_id: null, type: 'template.shared' as const, collection: null, record_id: row.id, item_id: null, actor_id: actorId, before: null, after: { template_id: row.id, name: row.name } })),
    now,
  );
  return inserted.map((r) => r.team_id);
}

export type { TemplateContent };
