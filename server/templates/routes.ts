import type { FastifyInstance } from 'fastify';
import { nanoid } from 'nanoid';
import type { AppContext } from '../context';
import { requireUser } from '../auth/guard';
import { parseBody, unauthorized, unauthenticated, validation } from '../http/errors';
import { teamIdParam } from '../sync/params';
import { readScope } from '../sync/read-scope';
import { runWrite } from '../sync/write';
import { requireTeamPermission } from '../workspaces/access';
import { can } from '../../schema/permissions';
import { Permission } from '../../schema/permission-names';
import { editTemplateBody, saveAsTemplateBody, shareTemplateBody, TEMPLATE_MAX_ITEMS, TemplateMessages, useTemplateBody } from '../../schema/templates';
import { instantiate, nextBoardPosition, snapshotFolder } from './content';
import { addShares, gallery, openTemplate, ownRow, summaries, teamsOf, templateIdParam } from './store';

/**
 * The templates API (issue #16, docs/api/templates.md, decision 0165). Templates belong to a user,
 * not a workspace: saving one needs SAVE_AS_TEMPLATE on the board, using one needs CREATE_BOARD
 * in the workspace the board is made in, and seeing one follows store.ts (owner, shared
 * workspaces, link). Notifications of a share come from the notifications consumer.
 */
export function templateRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The gallery: built-ins and the templates the caller may see; ?tag= and ?q= narrow it.
  app.get<{ Querystring: { tag?: string; q?: string } }>('/api/templates', async (request) => {
    const user = await requireUser(ctx.db, request);
    const tag = typeof request.query.tag === 'string' ? request.query.tag.slice(0, 40) : undefined;
    const q = typeof request.query.q === 'string' ? request.query.q.slice(0, 200) : undefined;
    return { data: await gallery(ctx.db, user.id, { tag, q }) };
  });

  app.get<{ Params: { templateId: string } }>('/api/templates/:templateId', async (request) => {
    const user = await requireUser(ctx.db, request);
    return { data: await openTemplate(ctx.db, templateIdParam(request.params.templateId), user.id) };
  });

  // The caller's own templates, or (?shared=1) those shared with their workspaces by others.
  app.get<{ Querystring: { shared?: string } }>('/api/me/templates', async (request) => {
    const user = await requireUser(ctx.db, request);
    if (request.query.shared === '1' || request.query.shared === 'true') {
      const teams = await teamsOf(ctx.db, user.id);
      if (teams.length === 0) return { data: [] };
      const rows = await ctx.db
        .selectFrom('templates')
        .selectAll()
        .where('owner_id', '!=', user.id)
        .where('id', 'in', ctx.db.selectFrom('template_shares').select('template_id').where('team_id', 'in', teams))
        .orderBy('updated_at', 'desc')
        .orderBy('id')
        .limit(500)
        .execute();
      return { data: await summaries(ctx.db, rows, user.id) };
    }
    const rows = await ctx.db.selectFrom('templates').selectAll().where('owner_id', '=', user.id).orderBy('updated_at', 'desc').orderBy('id').limit(500).execute();
    return { data: await summaries(ctx.db, rows, user.id) };
  });

  // Edit: name, description, cover, tags, link sharing, and the list of workspaces it is shared with.
  app.put<{ Params: { templateId: string } }>('/api/me/templates/:templateId', async (request) => {
    const user = await requireUser(ctx.db, request);
    const row = await ownRow(ctx.db, templateIdParam(request.params.templateId), user.id);
    const body = parseBody(editTemplateBody, request.body);
    if (body.shared_team_ids) await requireOwnTeams(user.id, body.shared_team_ids);
    const now = ctx.now();
    await ctx.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('templates')
        .set({
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.cover_url !== undefined ? { cover_url: body.cover_url } : {}),
          ...(body.tags !== undefined ? { tags: JSON.stringify([...new Set(body.tags)]) } : {}),
          ...(body.link_shared !== undefined ? { link_shared: body.link_shared } : {}),
          updated_at: now,
        })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (body.shared_team_ids) {
        const keep = [...new Set(body.shared_team_ids)];
        let removal = trx.deleteFrom('template_shares').where('template_id', '=', row.id);
        if (keep.length) removal = removal.where('team_id', 'not in', keep);
        await removal.execute();
        await addShares(trx, updated, keep, user.id, now);
      }
    });
    ctx.jobs.kick();
    return { data: await openTemplate(ctx.db, row.id, user.id) };
  });

  // Share with more workspaces of the caller's: at least one ("A template needs at least one workspace").
  app.post<{ Params: { templateId: string } }>('/api/me/templates/:templateId/share', async (request) => {
    const user = await requireUser(ctx.db, request);
    const row = await ownRow(ctx.db, templateIdParam(request.params.templateId), user.id);
    const body = parseBody(shareTemplateBody, request.body);
    const teamIds = [...new Set(body.team_ids)];
    if (teamIds.length === 0) throw validation([TemplateMessages.needsWorkspace]);
    await requireOwnTeams(user.id, teamIds);
    const now = ctx.now();
    await ctx.db.transaction().execute((trx) => addShares(trx, row, teamIds, user.id, now));
    ctx.jobs.kick();
    return { data: await openTemplate(ctx.db, row.id, user.id) };
  });

  app.delete<{ Params: { templateId: string } }>('/api/me/templates/:templateId', async (request) => {
    const user = await requireUser(ctx.db, request);
    const row = await ownRow(ctx.db, templateIdParam(request.params.templateId), user.id);
    await ctx.db.deleteFrom('templates').where('id', '=', row.id).execute();
    return { message: 'Deleted.' };
  });

  // Save a board (or one of its folders) as a template, with or without its items.
  app.post<{ Params: { teamId: string; boardId: string } }>('/api/:teamId/boards/:boardId/template', async (request) => {
    const { user, view, boardId } = await readScope(ctx, request, teamIdParam(request.params.teamId), request.params.boardId);
    if (!user) throw unauthenticated();
    const chain = view.chain(boardId!);
    if (!chain || !can({ permission: Permission.SAVE_AS_TEMPLATE, user: view.viewer, chain })) throw unauthorized();
    const body = parseBody(saveAsTemplateBody, request.body);
    const content = await snapshotFolder(ctx.db, view, view.team.id, boardId!, body.folder_id ?? boardId!, { withItems: body.with_items, maxItems: TEMPLATE_MAX_ITEMS, withAutomations: true });
    const now = ctx.now();
    const row = await ctx.db
      .insertInto('templates')
      .values({
        id: nanoid(),
        owner_id: user.id,
        source_team_id: view.team.id,
        name: body.name,
        description: body.description ?? '',
        cover_url: null,
        tags: JSON.stringify(body.tags ?? []),
        with_items: body.with_items,
        link_shared: false,
        content: JSON.stringify(content),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const [summary] = await summaries(ctx.db, [row], user.id);
    return { data: summary };
  });

  // Make a board from a template in this workspace (CREATE_BOARD), as the caller, in one write.
  app.post<{ Params: { teamId: string; templateId: string } }>('/api/:teamId/templates/:templateId/use', async (request, reply) => {
    const teamId = teamIdParam(request.params.teamId);
    const user = await requireUser(ctx.db, request);
    await requireTeamPermission(ctx, user, teamId, Permission.CREATE_BOARD);
    const template = await openTemplate(ctx.db, templateIdParam(request.params.templateId), user.id);
    const body = parseBody(useTemplateBody, request.body);
    const boardId = nanoid();
    const position = await nextBoardPosition(ctx.db, teamId);
    return runWrite(ctx, request, reply, teamId, async (scope) => {
      // A template is a board as its author made it: its Pro-only views come along on any plan and
      // show the upgrade message until the plan has them (decision 0260); only making one is gated.
      scope.proViews = null;
      const made = await instantiate(scope, template.content, { boardId, name: body.name, newId: () => nanoid(), position });
      return { status: 201, body: { data: { board_id: made.boardId, items: made.items } } };
    });
  });

  /** Every team must be one of the caller's workspaces (a template is shared only where its owner works). */
  async function requireOwnTeams(userId: number, teamIds: number[]): Promise<void> {
    const mine = new Set(await teamsOf(ctx.db, userId));
    const foreign = teamIds.filter((id) => !mine.has(id));
    if (foreign.length) throw validation([`team_ids: not a workspace of yours: ${foreign.join(', ')}`]);
  }
}
