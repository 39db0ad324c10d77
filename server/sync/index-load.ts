import type { FastifyRequest } from 'fastify';
import type { CollectionDefinition } from '../../schema/collections';
import type { AppContext } from '../context';
import { validation } from '../http/errors';
import { changeHorizon } from './cursor';
import { teamIdParam } from './params';
import { readScope } from './read-scope';
import { boardHead, boardRecords, countItems, recordsPage, teamFolders, type WireRecord } from './store';

/**
 * GET /api/{teamId}/{route}?board_id= — an index load (docs/sync-protocol.md "Index load").
 *
 * Unpaged (no `limit`, no `after`): every live record and the cursor, read in one snapshot.
 * Paged (`limit=n`, then `after=` the previous answer's `next`): one page in id order, its own
 * cursor and `next` (null on the last page). Each page is a snapshot of its own; a client that
 * asks /changes from the FIRST page's cursor misses nothing, because every later page was read
 * after that cursor (what changed between pages comes again through /changes, newer-wins).
 * Head (`head=n`, items and values): the first n items by position, or their values, and `rest`
 * (whether anything is left for the pages). Decision 0101: the head is on screen while the rest
 * streams in.
 */

export const INDEX_PAGE_DEFAULT = 5_000;
export const INDEX_PAGE_MAX = 10_000;

type IndexRequest = FastifyRequest<{ Params: { teamId: string }; Querystring: Record<string, string | undefined> }>;

export interface IndexAnswer {
  data: WireRecord[];
  cursor: number;
  /** Paged loads only: the `after` of the next page, or null when this was the last. */
  next?: string | null;
  /** Head loads only: whether records outside the head remain (then page from the start). */
  rest?: boolean;
}

function queryString(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/**
 * `head=n` (items and values only): the board's first n items by position, or their values — the
 * first screen of a position-sorted table, asked before the pages in id order.
 */
export function headParam(query: Record<string, string | undefined>, collection: string): number | null {
  const raw = query.head;
  if (raw === undefined) return null;
  const problems: string[] = [];
  if (collection !== 'item' && collection !== 'value') problems.push('head: only items and values have a head');
  if (!/^\d{1,5}$/.test(raw) || Number(raw) < 1 || Number(raw) > INDEX_PAGE_MAX) problems.push(`head: must be a whole number from 1 to ${INDEX_PAGE_MAX}`);
  if (query.limit !== undefined || query.after !== undefined) problems.push('head: not with limit or after');
  if (problems.length) throw validation(problems);
  return Number(raw);
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
  const head = boardId ? headParam(request.query, def.name) : null;
  const page = head === null ? pageParams(request.query) : null;
  const { view } = await readScope(ctx, request, teamId, boardId);
  // The cursor is the change horizon taken before the records' snapshot (cursor.ts): every change
  // up to it is in the records read, and /changes?after=cursor brings whatever is newer (some of
  // it possibly again, which merging ignores).
  const cursor = await changeHorizon(ctx.db);
  return ctx.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      if (head !== null) {
        const rows = await boardHead(trx, teamId, boardId!, def.name as 'item' | 'value', head);
        const rest = (await countItems(trx, teamId, boardId!, head + 1)) > head;
        return { data: await view.filter(trx, def.name, rows.map((r) => r.data)), cursor, rest };
      }
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
