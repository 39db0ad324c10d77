import type { FastifyRequest } from 'fastify';
import type { CollectionDefinition } from '../../schema/collections';
import type { AppContext } from '../context';
import { validation } from '../http/errors';
import { changeHorizon } from './cursor';
import { teamIdParam } from './params';
import { readScope } from './read-scope';
import { boardRecords, recordsPage, teamFolders, type WireRecord } from './store';

/**
 * GET /api/{teamId}/{route}?board_id= — an index load (docs/sync-protocol.md "Index load").
 *
 * Unpaged (no `limit`, no `after`): every live record and the cursor, read in one snapshot.
 * Paged (`limit=n`, then `after=` the previous answer's `next`): one page in id order, its own
 * cursor and `next` (null on the last page). Each page is a snapshot of its own; a client that
 * asks /changes from the FIRST page's cursor misses nothing, because every later page was read
 * after that cursor (what changed between pages comes again through /changes, newer-wins).
 * Decision 0101: the first page is on screen while the rest streams in.
 */

export const INDEX_PAGE_DEFAULT = 5_000;
export const INDEX_PAGE_MAX = 10_000;

type IndexRequest = FastifyRequest<{ Params: { teamId: string }; Querystring: Record<string, string | undefined> }>;

export interface IndexAnswer {
  data: WireRecord[];
  cursor: number;
  /** Paged loads only: the `after` of the next page, or null when this was the last. */
  next?: string | null;
}

function queryString(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** The page asked for, or null for the unpaged answer; a malformed parameter is a 422 naming it. */
export function pageParams(query: Record<string, string | undefined>): { limit: number; after: string | null } | null {
  const rawLimit = query.limit;
  const after = query.after;
  if (rawLimit === undefined && after === undefined) return null;
  const problems: string[] = [];
  let limit = INDEX_PAGE_DEFAULT;
  if (rawLimit !== undefined) {
    if (!/^\d{1,6}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > INDEX_PAGE_MAX) problems.push(`limit: must be a whole number from 1 to ${INDEX_PAGE_MAX}`);
    else limit = Number(rawLimit);
  }
  if (after !== undefined && (typeof after !== 'string' || after.length === 0 || after.length > 200)) problems.push('after: must be the `next` of the previous page');
  if (problems.length) throw validation(problems);
  return { limit, after: after ?? null };
}

export async function indexLoad(ctx: AppContext, request: IndexRequest, def: CollectionDefinition): Promise<IndexAnswer> {
  const teamId = teamIdParam(request.params.teamId);
  const boardId = queryString(request.query.board_id);
  if (!boardId && def.name !== 'folder') throw validation(['board_id: required']);
  const page = pageParams(request.query);
  const { view } = await readScope(ctx, request, teamId, boardId);
  // The cursor is the change horizon taken before the records' snapshot (cursor.ts): every change
  // up to it is in the records read, and /changes?after=cursor brings whatever is newer (some of
  // it possibly again, which merging ignores).
  const cursor = await changeHorizon(ctx.db);
  return ctx.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      if (!page) {
        const rows = boardId ? await boardRecords(trx, teamId, boardId, def.name) : await teamFolders(trx, teamId);
        return { data: await view.filter(trx, def.name, rows.map((r) => r.data)), cursor };
      }
      const { rows, more } = await recordsPage(trx, teamId, boardId, def.name, page.after, page.limit);
      // `next` is the last id read, not the last one shown: a page the read rule thinned (hidden
      // folders) must not make the client stop early or ask the same rows again.
      const next = more ? rows[rows.length - 1]!.id : null;
      return { data: await view.filter(trx, def.name, rows.map((r) => r.data)), cursor, next };
    });
}
