import { actionSchema, automationProblems, type BoardFacts } from '../../schema/automations';
import type { AttributeRef } from '../../schema/filters';
import { validation } from '../http/errors';
import type { CollectionRules, SaveContext } from '../sync/rules';
import type { WriteScope } from '../sync/scope';
import { boardRecords } from '../sync/store';

/**
 * Save rules of the `automation` and `button_click` collections (registered in
 * server/sync/rules.ts). Writing an automation needs MANAGE_AUTOMATIONS on the board (the
 * registry's permissions); these rules add what the generic path cannot know.
 */

/** The board's live attributes and folders, for judging whether an automation can run. */
export async function boardFacts(scope: WriteScope, boardId: string): Promise<BoardFacts> {
  const attributes = new Map<string, AttributeRef>();
  for (const row of await boardRecords(scope.trx, scope.team.id, boardId, 'attribute')) {
    attributes.set(row.id, { id: row.id, kind: String(row.data.kind), name: String(row.data.name ?? ''), settings: (row.data.settings as Record<string, unknown>) ?? {} });
  }
  return { attributes, folderIds: new Set((await scope.folders(boardId)).keys()) };
}

export const automationRules: CollectionRules = {
  /**
   * An incomplete or invalid automation is stored (the builder saves drafts) but disabled: the
   * answer carries enabled false, and the builder says "The automation is not complete or not valid".
   */
  async prepare({ scope, record }: SaveContext) {
    if (record.enabled !== true) return;
    const problems = automationProblems(record as never, await boardFacts(scope, String(record.board_id)));
    if (problems.length) record.enabled = false;
  },
  async authorize(ctx, byDefault) {
    await byDefault(ctx);
    // Creating items on another board: the person setting it up must be allowed to there.
    for (const raw of (ctx.record.actions as unknown[]) ?? []) {
      const action = actionSchema.safeParse(raw);
      if (!action.success || action.data.type !== 'create_item' || action.data.board_id === ctx.record.board_id) continue;
      const board = await ctx.scope.record('folder', action.data.board_id);
      if (!board || board.team_id !== ctx.scope.team.id || board.deleted_at || board.data.parent_id !== null) {
        throw validation([`actions: there is no board ${action.data.board_id} in this workspace`]);
      }
      ctx.scope.require('CREATE_ITEM', await ctx.scope.chain(action.data.board_id, action.data.folder_id));
    }
  },
};

export const buttonClickRules: CollectionRules = {
  prepare({ existing, record, refs }) {
    // A click happened: it is never changed afterwards (saving it again as it is changes nothing).
    if (existing && (existing.data.item_id !== record.item_id || existing.data.attribute_id !== record.attribute_id)) throw validation(['a button click cannot be changed']);
    if (refs.get('attribute_id')?.data.kind !== 'button') throw validation(['attribute_id: not a button attribute']);
  },
};
