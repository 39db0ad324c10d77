import { nanoid } from 'nanoid';
import { sql } from 'kysely';
import type { AppContext } from '../context';
import { collections } from '../../schema/collections';
import { valueIdFor } from '../../schema/records';
import { DEMO_WORKSPACE_NAME } from '../workspaces/demo';
import { loadTeam } from './access';
import { saveRecord } from './operations';
import { WriteScope } from './scope';

export const DEMO_BOARD_NAME = 'Product roadmap';

/** Label options of the demo Status attribute; a label value stores the option's id. */
const STATUS_LABELS = [
  { id: 'todo', name: 'To do', color: '#C4C4C4', textColor: '#4C4E69' },
  { id: 'doing', name: 'In progress', color: '#FDAB3D', textColor: '#FFFFFF' },
  { id: 'done', name: 'Done', color: '#00C875', textColor: '#FFFFFF' },
  { id: 'stuck', name: 'Stuck', color: '#E2445C', textColor: '#FFFFFF' },
];

const ITEMS: { name: string; status: string; due: string; owner: number }[] = [
  { name: 'Offline editing', status: 'done', due: '2026-09-15', owner: 0 },
  { name: 'Realtime presence', status: 'doing', due: '2026-11-30', owner: 1 },
  { name: 'Time tracking reports', status: 'doing', due: '2026-12-10', owner: 2 },
  { name: 'Kanban swimlanes', status: 'todo', due: '2027-01-20', owner: 1 },
  { name: 'CSV import', status: 'stuck', due: '2026-12-01', owner: 3 },
  { name: 'Webhooks for comments', status: 'todo', due: '2027-02-14', owner: 0 },
  { name: 'Mobile pull-to-refresh', status: 'done', due: '2026-10-05', owner: 2 },
];

/**
 * Adds the "Product roadmap" board to the demo workspace: Status (label), Owner (members) and
 * Due date attributes and seven items with values, saved through the normal sync path so the
 * change log is complete. Skips quietly when the workspace is missing or the board exists.
 */
export async function seedDemoBoard(ctx: AppContext): Promise<void> {
  const teamRow = await ctx.db.selectFrom('teams').select(['id']).where('name', '=', DEMO_WORKSPACE_NAME).orderBy('id').executeTakeFirst();
  if (!teamRow) return;
  const team = await loadTeam(ctx.db, teamRow.id);
  if (!team) return;
  const existing = await ctx.db
    .selectFrom('records')
    .select('id')
    .where('team_id', '=', team.id)
    .where('collection', '=', 'folder')
    .where(sql<string>`data->>'name'`, '=', DEMO_BOARD_NAME)
    .executeTakeFirst();
  if (existing) return;
  const members = await ctx.db.selectFrom('team_members').select('user_id').where('team_id', '=', team.id).orderBy('user_id').execute();
  const memberIds = members.map((m) => m.user_id);

  await ctx.db.transaction().execute(async (trx) => {
    const scope = new WriteScope(trx, team, { id: team.owner_id, role: 'owner', teamId: team.id }, ctx.now());
    const boardId = nanoid();
    const save = (def: (typeof collections)[keyof typeof collections], record: Record<string, unknown>) =>
      saveRecord(scope, def, String(record.id), { row_version: 1, board_id: boardId, ...record });

    await save(collections.folder, { id: boardId, parent_id: null, name: DEMO_BOARD_NAME, position: 0 });
    const status = { id: nanoid(), folder_id: boardId, name: 'Status', kind: 'label', position: 1, settings: { options: STATUS_LABELS } };
    const owner = { id: nanoid(), folder_id: boardId, name: 'Owner', kind: 'members', position: 2, settings: {} };
    const due = { id: nanoid(), folder_id: boardId, name: 'Due date', kind: 'date', position: 3, settings: {} };
    for (const attribute of [status, owner, due]) await save(collections.attribute, attribute);
    await save(collections.folder_view, { id: nanoid(), folder_id: boardId, name: 'Table', kind: 'table', visibility: 'shared', position: 0 });

    for (const [index, spec] of ITEMS.entries()) {
      const itemId = nanoid();
      await save(collections.item, { id: itemId, folder_id: boardId, name: spec.name, position: index + 1 });
      const ownerId = memberIds.length ? memberIds[spec.owner % memberIds.length]! : team.owner_id;
      const values: [string, unknown][] = [
        [status.id, spec.status],
        [owner.id, [ownerId]],
        [due.id, spec.due],
      ];
      for (const [attributeId, value] of values) {
        await save(collections.value, { id: valueIdFor(itemId, attributeId), item_id: itemId, attribute_id: attributeId, value });
      }
    }
  });
}
