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
    // Where the actions write, the person setting them up must be allowed to write now (the run
    // checks again with the author's rights of then, N2): creating items on this or another board,
    // moving items into a folder.
    const boardId = String(ctx.record.board_id);
    for (const raw of (ctx.record.actions as unknown[]) ?? []) {
      const action = actionSchema.safeParse(raw);
      if (!action.success) continue;
      if (action.data.type === 'create_item') {
        if (action.data.board_id !== boardId) {
          const board = await ctx.scope.record('folder', action.data.board_id);
          if (!board || board.team_id !== ctx.scope.team.id || board.deleted_at || board.data.parent_id !== null) {
            throw validation([`actions: there is no board ${action.data.board_id} in this workspace`]);
          }
        } else if (!(await ctx.scope.folders(boardId)).has(action.data.folder_id)) continue; // gone: prepare switched it off
        ctx.scope.require('CREATE_ITEM', await ctx.scope.chain(action.data.board_id, action.data.folder_id));
      } else if (action.data.type === 'move_to_folder') {
        // A folder not on the board is the builder's "not complete" (prepare), not a refusal.
        if (!(await ctx.scope.folders(boardId)).has(action.data.folder_id)) continue;
        const chain = await ctx.scope.chain(boardId, action.data.folder_id);
        ctx.scope.require('CREATE_ITEM', chain);
        ctx.scope.require('EDIT_ITEM', chain);
      }
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
