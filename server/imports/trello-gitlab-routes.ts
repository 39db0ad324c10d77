import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { requireUser, requireUserId } from '../auth/guard';
import { ApiError, parseBody, unauthenticated, unauthorized, validation } from '../http/errors';
import { teamIdParam } from '../sync/params';
import { readScope } from '../sync/read-scope';
import { allowed } from '../sync/access';
import { startedWith } from '../sync/actor';
import { requireMemberAccess } from '../workspaces/access';
import { memberRows } from '../workspaces/views';
import { toWire } from '../board-jobs/store';
import { startBoardJob } from '../board-jobs/runner';
import { CsvImportMessages } from '../../schema/csv-import';
import { EXTERNAL_IMPORT_MAX_BYTES, gitlabImportBody, ImportMessages, trelloImportBody, trelloListsOf, trelloTokenBody } from '../../schema/trello-gitlab-import';
import { personMatcher, type ImportPlan } from './import-plan';
import { asTrelloBoard, trelloPlan } from './trello-map';
import { gitlabIssuesFromFile, gitlabIssuesFromJson, gitlabPlan } from './gitlab-map';
import { trelloBoard, trelloBoards, trelloConfig } from './trello-api';
import { gitlabIssues } from './gitlab-api';
import { outboundRule } from '../outbound';
import { GITLAB_IMPORT_KIND, TRELLO_IMPORT_KIND, type PlanImportInput } from './plan-job';
import { DatabaseThrottle, type LimitRule } from '../accounts/rate-limit';
import { tooManyAttempts } from '../accounts/limits';

/**
 * Trello and Gitlab imports (docs/imports.md, decision 0220):
 *   GET  /api/imports/trello/config                          whether the Trello API path is open, and Trello's authorize page
 *   POST /api/{teamId}/imports/trello/boards                 the Trello member's boards (body {token})
 *   POST /api/{teamId}/imports/trello/boards/{trelloBoardId} one Trello board's lists with card counts (body {token})
 *   POST /api/{teamId}/boards/{boardId}/imports/trello       starts a Trello import (export file, or board id + token) → 202 {job}
 *   POST /api/{teamId}/boards/{boardId}/imports/gitlab       starts a Gitlab import (export file, or address + project + token) → 202 {job}
 * The route reads the source (file or API) and turns it into an ImportPlan; the job writes it.
 */

/**
 * Starts of an import read through Gitlab's or Trello's API, per user (issue #26, N4): the server
 * fetches an address the user chose, so each start is a probe of a remote service. One counter
 * for both sources, a slot taken after the permission checks and before any fetch; a refused or
 * failed fetch still counts (a probe is exactly that). The export-file paths fetch nothing and are
 * not counted. 429 `rate_limited` with Retry-After past it (docs/operations.md, Throttles).
 */
export const API_IMPORT_START_RULE: LimitRule = { max: 10, windowMs: 60 * 60_000 };
export const apiImportThrottleKey = (userId: number) => `apiImportStart:${userId}`;

/**
 * Listings read through Trello's API before an import (the member's boards, one board's lists),
 * per user, with the same database throttle (issue #26): each is a request the server sends for
 * the user, and a board's listing reads the whole board (up to 64 MB). A counter of its own, so
 * choosing what to import does not use up the starts: 30 an hour (an import takes 2 or 3). The
 * slot is taken after the membership check and before any fetch; 429 `rate_limited` past it.
 */
export const TRELLO_LISTING_RULE: LimitRule = { max: 30, windowMs: 60 * 60_000 };
export const trelloListingThrottleKey = (userId: number) => `trelloListing:${userId}`;

type TeamBoard = { Params: { teamId: string; boardId: string } };
type TrelloBoardParams = { Params: { teamId: string; trelloBoardId: string } };

/** Signed in, views the board, and holds `permission` on it. */
async function boardWith(ctx: AppContext, request: FastifyRequest, teamId: number, boardId: string, permission: string) {
  await requireUserId(ctx.db, request);
  const scope = await readScope(ctx, request, teamId, boardId);
  const chain = scope.view.chain(boardId);
  if (!chain || !allowed(scope.view.viewer, permission, chain)) throw scope.user ? unauthorized() : unauthenticated();
  return scope;
}

/** The folder the import writes into: one of the board's that the caller sees, and may add to. */
async function targetFolder(ctx: AppContext, scope: Awaited<ReturnType<typeof boardWith>>, teamId: number, boardId: string, folderId: string) {
  const chain = scope.view.chain(folderId);
  const row = await ctx.db.selectFrom('records').select('board_id').where('collection', '=', 'folder').where('id', '=', folderId).where('team_id', '=', teamId).where('deleted_at', 'is', null).executeTakeFirst();
  if (!chain || !scope.view.canViewIn(folderId, boardId) || row?.board_id !== boardId) throw validation([CsvImportMessages.selectOneFolder]);
  if (!allowed(scope.view.viewer, 'CREATE_ITEM', chain)) throw unauthorized();
  return chain;
}

/**
 * Permission checks of an import read through an API, run before the server fetches anything (N4):
 * such a plan always adds attributes, and folders when Trello lists become folders.
 */
function mayImportFromApi(scope: Awaited<ReturnType<typeof boardWith>>, folderChain: NonNullable<ReturnType<Awaited<ReturnType<typeof boardWith>>['view']['chain']>>, opts: { folders: boolean }) {
  if (!allowed(scope.view.viewer, 'MANAGE_ATTRIBUTES', folderChain)) throw unauthorized();
  if (opts.folders && !allowed(scope.view.viewer, 'CREATE_FOLDER', folderChain)) throw unauthorized();
}

async function matcherFor(ctx: AppContext, teamId: number) {
  const members = await memberRows(ctx.db, teamId, { pending: false }).execute();
  return personMatcher(members.map((m) => ({ id: m.id, email: m.email, name: m.name ?? '' })));
}

/** The mapping's refusals (not a Trello file, no list chosen, too many items) as 422s. */
function planOrRefuse(make: () => ImportPlan): ImportPlan {
  try {
    return make();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw validation([error instanceof Error ? error.message : String(error)]);
  }
}

async function startPlan(ctx: AppContext, opts: { request: FastifyRequest; teamId: number; boardId: string; scope: Awaited<ReturnType<typeof boardWith>>; folderChain: NonNullable<ReturnType<Awaited<ReturnType<typeof boardWith>>['view']['chain']>>; kind: string; plan: ImportPlan; folderId: string }) {
  const { scope, plan } = opts;
  if (plan.items.length === 0) throw validation([ImportMessages.noItems]);
  if (plan.attributes.length && !allowed(scope.view.viewer, 'MANAGE_ATTRIBUTES', opts.folderChain)) throw unauthorized();
  if (plan.folders.length && !allowed(scope.view.viewer, 'CREATE_FOLDER', opts.folderChain)) throw unauthorized();
  // The job writes with the abilities of the token it was started with, if any (sync/actor.ts).
  const input: PlanImportInput = { title: plan.title, folder_id: opts.folderId, source: plan.source, ...startedWith(opts.request.apiToken) };
  return startBoardJob(ctx, { teamId: opts.teamId, userId: scope.user!.id, boardId: opts.boardId, kind: opts.kind, input: input as never, payload: JSON.stringify(plan), total: plan.items.length });
}

/** The member's Trello token travels in a POST body (never in an address, where logs keep it). */
const trelloToken = (request: FastifyRequest) => {
  const token = (request.body as { token?: unknown } | undefined)?.token;
  if (typeof token !== 'string' || !token.trim() || token.length > 512) throw new ApiError(422, ImportMessages.trelloToken, 'validation');
  return token.trim();
};

export function trelloGitlabRoutes(app: FastifyInstance, ctx: AppContext): void {
  const throttle = new DatabaseThrottle(ctx.db, () => ctx.now());
  /** One slot of the user's API import starts, or a 429 before anything is fetched. */
  const takeApiImportSlot = async (reply: FastifyReply, userId: number) => {
    const slot = await throttle.take(apiImportThrottleKey(userId), API_IMPORT_START_RULE);
    if (!slot.allowed) tooManyAttempts(reply, slot.retryAfterMs);
  };
  /** One slot of the user's Trello listings, or a 429 before anything is fetched. */
  const takeListingSlot = async (reply: FastifyReply, userId: number) => {
    const slot = await throttle.take(trelloListingThrottleKey(userId), TRELLO_LISTING_RULE);
    if (!slot.allowed) tooManyAttempts(reply, slot.retryAfterMs);
  };

  app.get('/api/imports/trello/config', { config: { docs: { summary: 'Whether this server imports from Trello’s API, and Trello’s authorize page', tag: 'imports', description: '`{enabled, authorize_url}`; `enabled` is false without a Trello API key on the server (the export file import always works). The app adds `return_url` to the authorize page.' } } }, async (request) => {
    await requireUserId(ctx.db, request);
    return { data: trelloConfig('Cairn') };
  });

  app.post<{ Params: { teamId: string } }>('/api/:teamId/imports/trello/boards', { config: { docs: { summary: 'The Trello member’s boards ', tag: 'imports', body: trelloTokenBody, description: 'Body `{token}`: the member’s token from Trello’s authorize page. Read from Trello’s GET /1/members/me/boards. 409 when no Trello API key is configured; 422 when Trello refuses the token; 429 `rate_limited` past 30 Trello listings an hour per user (this and a board’s lists together).' } } }, async (request, reply) => {
    const user = await requireUser(ctx.db, request);
    await requireMemberAccess(ctx, user, teamIdParam(request.params.teamId));
    const token = trelloToken(request);
    await takeListingSlot(reply, user.id);
    return { data: await trelloBoards(outboundRule(ctx.config, 'trelloImport'), token) };
  });

  app.post<TrelloBoardParams>('/api/:teamId/imports/trello/boards/:trelloBoardId', { config: { docs: { summary: 'One Trello board’s lists with their card counts', tag: 'imports', body: trelloTokenBody, description: 'Body `{token}`. Read from Trello’s GET /1/boards/{id}; 404 “Trello data loading error” for a board the token does not reach; 429 `rate_limited` past 30 Trello listings an hour per user (this and the boards listing together).' } } }, async (request, reply) => {
    const user = await requireUser(ctx.db, request);
    await requireMemberAccess(ctx, user, teamIdParam(request.params.teamId));
    const token = trelloToken(request);
    await takeListingSlot(reply, user.id);
    const lists = trelloListsOf(await trelloBoard(outboundRule(ctx.config, 'trelloImport'), token, request.params.trelloBoardId));
    if (!lists) throw new ApiError(502, ImportMessages.trelloLoading, 'bad_gateway');
    return { data: lists };
  });

  const trelloDocs = { summary: 'Starts a Trello import into one folder of the board (a background job)', tag: 'imports', body: trelloImportBody, description: 'The board export JSON (`board`, Trello’s “Print and export”), or `trello_board_id` and `token` (read through Trello’s API; 429 `rate_limited` past 10 API starts an hour per user, Gitlab’s counted with them). `list_ids`: the lists to import (“choose at least one list to import”); `lists_as`: `folders` (a subfolder per list) or `labels` (a “List” label). Mapping: docs/imports.md. Answers 202 with the job.' };
  app.post<TeamBoard>('/api/:teamId/boards/:boardId/imports/trello', { bodyLimit: EXTERNAL_IMPORT_MAX_BYTES + 1024 * 1024, config: { docs: trelloDocs } }, async (request, reply) => {
    const teamId = teamIdParam(request.params.teamId);
    const boardId = request.params.boardId;
    const scope = await boardWith(ctx, request, teamId, boardId, 'CREATE_ITEM');
    const body = parseBody(trelloImportBody, request.body);
    const folderChain = await targetFolder(ctx, scope, teamId, boardId, body.folder_id);
    if (body.board === undefined) {
      mayImportFromApi(scope, folderChain, { folders: body.lists_as === 'folders' });
      await takeApiImportSlot(reply, scope.user!.id);
    }
    const source = body.board !== undefined ? body.board : await trelloBoard(outboundRule(ctx.config, 'trelloImport'), body.token!, body.trello_board_id!);
    const matchPerson = await matcherFor(ctx, teamId);
    const plan = planOrRefuse(() => trelloPlan(asTrelloBoard(source), { listsAs: body.lists_as, listIds: body.list_ids, includeArchived: body.include_archived, matchPerson }));
    if (body.file_name && body.board !== undefined) plan.title = body.file_name.slice(0, 255);
    const row = await startPlan(ctx, { request, teamId, boardId, scope, folderChain, kind: TRELLO_IMPORT_KIND, plan, folderId: body.folder_id });
    return reply.status(202).send({ data: toWire(row) });
  });

  const gitlabDocs = { summary: 'Starts a Gitlab issues import into one folder of the board (a background job)', tag: 'imports', body: gitlabImportBody, description: 'The issues export as text (`content`: the CSV export, or the issues JSON of the API), or `url`, `project` (id or path) and `token` (read through Gitlab’s REST API, every page; 429 `rate_limited` past 10 API starts an hour per user, Trello’s counted with them). Mapping: docs/imports.md. Answers 202 with the job.' };
  app.post<TeamBoard>('/api/:teamId/boards/:boardId/imports/gitlab', { bodyLimit: EXTERNAL_IMPORT_MAX_BYTES + 1024 * 1024, config: { docs: gitlabDocs } }, async (request, reply) => {
    const teamId = teamIdParam(request.params.teamId);
    const boardId = request.params.boardId;
    const scope = await boardWith(ctx, request, teamId, boardId, 'CREATE_ITEM');
    const body = parseBody(gitlabImportBody, request.body);
    const folderChain = await targetFolder(ctx, scope, teamId, boardId, body.folder_id);
    const matchPerson = await matcherFor(ctx, teamId);
    let plan: ImportPlan;
    if (body.content !== undefined) {
      plan = planOrRefuse(() => gitlabPlan(gitlabIssuesFromFile(body.content!), { title: body.file_name || 'Gitlab issues', matchPerson }));
    } else {
      mayImportFromApi(scope, folderChain, { folders: false });
      await takeApiImportSlot(reply, scope.user!.id);
      const issues = await gitlabIssues({ url: body.url!, project: body.project!, token: body.token!, rule: outboundRule(ctx.config, 'gitlabImport') });
      plan = planOrRefuse(() => gitlabPlan(gitlabIssuesFromJson(issues), { title: body.project!, matchPerson }));
    }
    const row = await startPlan(ctx, { request, teamId, boardId, scope, folderChain, kind: GITLAB_IMPORT_KIND, plan, folderId: body.folder_id });
    return reply.status(202).send({ data: toWire(row) });
  });
}
