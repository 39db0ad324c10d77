import { nanoid } from 'nanoid';
import { sql } from 'kysely';
import type { AppContext } from '../context';
import { collections } from '../../schema/collections';
import { valueIdFor } from '../../schema/records';
import { DEFAULT_STATUS_OPTIONS, PRIMARY_ATTRIBUTE_NAME, primaryAttributeIdFor } from '../../schema/board-defaults';
import { DEMO_WORKSPACE_NAME } from '../workspaces/demo';
import { loadTeam, type TeamRow } from './access';
import { saveRecord } from './operations';
import type { WriteScope } from './scope';
import { writeAs } from './actor';

export const DEMO_BOARD_NAME = 'Product roadmap';
export const DEMO_BUG_BOARD_NAME = 'Bug tracker';

/** Label options of the bug tracker's Severity attribute. */
const SEVERITY_LABELS = [
  { id: 'low', name: 'Low', color: '#D0D4E4', textColor: '#1F2937' },
  { id: 'medium', name: 'Medium', color: '#FDAB3D', textColor: '#1F2937' },
  { id: 'high', name: 'High', color: '#C4314B', textColor: '#FFFFFF' },
];

/** One demo item: its name, a value per attribute key (owner: an index into the members) and comments (author index, text). */
interface DemoItem {
  name: string;
  values: Record<string, unknown>;
  comments?: [number, string][];
}

interface DemoAttribute {
  key: string;
  name: string;
  kind: string;
  settings?: Record<string, unknown>;
}

interface DemoBoard {
  name: string;
  attributes: DemoAttribute[];
  /** Views in tab order; `groupBy` names an attribute key (the Column view's columns). */
  views: { name: string; kind: string; groupBy?: string }[];
  items: DemoItem[];
}

const STATUS = { key: 'status', name: 'Status', kind: 'label', settings: { options: DEFAULT_STATUS_OPTIONS } };
const OWNER = { key: 'owner', name: 'Owner', kind: 'members' };

const ROADMAP: DemoBoard = {
  name: DEMO_BOARD_NAME,
  attributes: [STATUS, OWNER, { key: 'due', name: 'Due date', kind: 'date' }],
  views: [
    { name: 'Table', kind: 'table' },
    { name: 'Kanban', kind: 'column', groupBy: 'status' },
  ],
  items: [
    { name: 'Offline editing', values: { status: 'done', due: '2026-09-15', owner: 0 }, comments: [[1, 'Shipped in 34.3. Edits made on the train now sync when the laptop wakes up.'], [0, 'Great work. Let us write it up for the changelog.']] },
    { name: 'Realtime presence', values: { status: 'doing', due: '2026-11-30', owner: 1 }, comments: [[2, 'Avatars show on the board; cursors in the table are next.']] },
    { name: 'Time tracking reports', values: { status: 'doing', due: '2026-12-10', owner: 2 } },
    { name: 'Kanban swimlanes', values: { status: 'todo', due: '2027-01-20', owner: 1 } },
    { name: 'CSV import', values: { status: 'stuck', due: '2026-12-01', owner: 3 }, comments: [[3, 'Blocked: files from the old export use semicolons. Which separators do we accept?']] },
    { name: 'Webhooks for comments', values: { status: 'todo', due: '2027-02-14', owner: 0 } },
    { name: 'Mobile pull-to-refresh', values: { status: 'done', due: '2026-10-05', owner: 2 } },
  ],
};

const BUGS: DemoBoard = {
  name: DEMO_BUG_BOARD_NAME,
  attributes: [STATUS, { key: 'severity', name: 'Severity', kind: 'label', settings: { options: SEVERITY_LABELS } }, { ...OWNER, name: 'Assignee' }, { key: 'reported', name: 'Reported', kind: 'date' }],
  views: [
    { name: 'All bugs', kind: 'table' },
    { name: 'By status', kind: 'column', groupBy: 'status' },
    { name: 'By severity', kind: 'column', groupBy: 'severity' },
  ],
  items: [
    { name: 'Login button does nothing on Safari 16', values: { status: 'doing', severity: 'high', owner: 1, reported: '2026-11-18' }, comments: [[1, 'Reproduced: the click handler runs before the form is mounted.']] },
    { name: 'Date picker shows last month after midnight', values: { status: 'todo', severity: 'medium', owner: 2, reported: '2026-11-20' } },
    { name: 'Avatar blurry on high-density screens', values: { status: 'done', severity: 'low', owner: 3, reported: '2026-11-02' } },
    { name: 'Export to CSV drops the last row', values: { status: 'stuck', severity: 'high', owner: 0, reported: '2026-11-21' }, comments: [[0, 'Waiting for a sample file from the customer.'], [2, 'Got it, attaching to the ticket.']] },
    { name: 'Typo in the invitation email', values: { status: 'done', severity: 'low', owner: 2, reported: '2026-11-10' } },
  ],
};

/**
 * The demo workspace's boards (issue #17 part 2): "Product roadmap" and "Bug tracker", each with its
 * name attribute, labels with the default statuses, several views and a few comments, saved
 * through the normal sync path so the change log and activity are complete. A board that exists
 * (by name) is left as it is; a missing one is added.
 */
export async function seedDemoBoard(ctx: AppContext): Promise<void> {
  const teamRow = await ctx.db.selectFrom('teams').select(['id']).where('name', '=', DEMO_WORKSPACE_NAME).orderBy('id').executeTakeFirst();
  if (!teamRow) return;
  const team = await loadTeam(ctx.db, teamRow.id);
  if (!team) return;
  const members = await ctx.db.selectFrom('team_members').select(['user_id', 'role']).where('team_id', '=', team.id).orderBy('user_id').execute();
  for (const [index, board] of [ROADMAP, BUGS].entries()) {
    const existing = await ctx.db
      .selectFrom('records')
      .select('id')
      .where('team_id', '=', team.id)
      .where('collection', '=', 'folder')
      .where(sql<string>`data->>'name'`, '=', board.name)
      .executeTakeFirst();
    if (!existing) await seedBoard(ctx, team, members, board, index);
  }
}

async function seedBoard(ctx: AppContext, team: TeamRow, members: { user_id: number; role: string }[], spec: DemoBoard, position: number): Promise<void> {
  const memberIds = members.length ? members.map((m) => m.user_id) : [team.owner_id];
  await ctx.db.transaction().execute(async (trx) => {
    const now = ctx.now();
    // Each seeded record is written as its author, with that member's role (sync/actor.ts).
    const scopes = new Map<number, WriteScope>();
    const scopeOf = async (userId: number) => {
      let found = scopes.get(userId);
      if (!found) {
        const acting = await writeAs(trx, team.id, { userId }, now);
        if (!acting) throw new Error('The demo workspace is gone.');
        scopes.set(userId, (found = acting.scope));
      }
      return found;
    };
    const scope = await scopeOf(team.owner_id);
    const boardId = nanoid();
    const save = (def: (typeof collections)[keyof typeof collections], record: Record<string, unknown>, as = scope) =>
      saveRecord(as, def, String(record.id), { row_version: 1, board_id: boardId, ...record });

    await save(collections.folder, { id: boardId, parent_id: null, name: spec.name, position });
    await save(collections.attribute, { id: primaryAttributeIdFor(boardId), folder_id: boardId, name: PRIMARY_ATTRIBUTE_NAME, kind: 'primary', position: 0, settings: {} });
    const attributeIds = new Map<string, string>();
    for (const [index, attribute] of spec.attributes.entries()) {
      const id = nanoid();
      attributeIds.set(attribute.key, id);
      await save(collections.attribute, { id, folder_id: boardId, name: attribute.name, kind: attribute.kind, position: index + 1, settings: attribute.settings ?? {} });
    }
    for (const [index, view] of spec.views.entries()) {
      const settings = view.groupBy ? { group_by: attributeIds.get(view.groupBy) } : {};
      await save(collections.folder_view, { id: nanoid(), folder_id: boardId, name: view.name, kind: view.kind, visibility: 'shared', position: index, settings });
    }

    for (const [index, item] of spec.items.entries()) {
      const itemId = nanoid();
      await save(collections.item, { id: itemId, folder_id: boardId, name: item.name, position: index + 1 });
      for (const [key, raw] of Object.entries(item.values)) {
        const attribute = spec.attributes.find((a) => a.key === key)!;
        const value = attribute.kind === 'members' ? [memberIds[Number(raw) % memberIds.length]!] : raw;
        const attributeId = attributeIds.get(key)!;
        await save(collections.value, { id: valueIdFor(itemId, attributeId), item_id: itemId, attribute_id: attributeId, value });
      }
      for (const [author, text] of item.comments ?? []) {
        const as = await scopeOf(memberIds[author % memberIds.length]!);
        await save(collections.comment, { id: nanoid(), item_id: itemId, parent_id: null, text: { html: `<p>${text}</p>` }, pinned: false }, as);
      }
    }
    await scope.finish();
  });
}
