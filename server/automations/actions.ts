import { randomBytes } from 'node:crypto';
import { collections } from '../../schema/collections';
import { valueIdFor } from '../../schema/records';
import { addDays, dateInZone, renderTemplate, type Action } from '../../schema/automations';
import { ApiError } from '../http/errors';
import { saveRecord } from '../sync/operations';
import type { WriteScope } from '../sync/scope';
import type { StoredRecord } from '../sync/store';
import { notifyAutomation } from '../notifications/emit';
import { ItemAudience } from '../notifications/audience';
import type { NotifyContext } from '../notifications/notify';
import { sendToWebhook } from './webhook';
import type { AppContext } from '../context';

/**
 * The actions of one run, done through the same save path as a user's writes (saveRecord:
 * validation, permissions, row versions, change log, domain events, realtime) with the rights of
 * the automation's author (sync/actor.ts, N2), so every change is an ordinary change shown with
 * Autobot as its author and the automation on its events, and refused where its author may not write.
 */

export interface ActionRun {
  ctx: AppContext;
  scope: WriteScope;
  /** For notifications and deliveries: the run's transaction, so they exist exactly when it commits. */
  notify: NotifyContext;
  automation: { id: string; name: string; board_id: string };
  item: StoredRecord;
  /** Names this run for good (automation id + cause): keys of notifications and deliveries. */
  runKey: string;
  /** The time zone relative dates and {{today}} are read in. */
  timezone(): Promise<string>;
  /** The item's board's name (read only when a template asks for it). */
  boardName(): Promise<string>;
}

/** A client-style record id (nanoid's alphabet). */
export const newRecordId = () => randomBytes(15).toString('base64url');

/** The values templates fill in (the board's name and the zone are read only when the text uses them). */
async function vars(run: ActionRun, ...texts: string[]): Promise<Record<string, string>> {
  const uses = (key: string) => texts.some((text) => text.includes(key));
  return {
    'item.name': String(run.item.data.name ?? ''),
    'board.name': uses('board.name') ? await run.boardName() : '',
    'automation.name': run.automation.name,
    today: uses('today') ? dateInZone(run.scope.now, await run.timezone()) : '',
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Saves a value of the item (creating the value record, or the next version of it). */
async function saveValue(run: ActionRun, itemId: string, boardId: string, attributeId: string, value: unknown): Promise<void> {
  const id = valueIdFor(itemId, attributeId);
  const existing = await run.scope.record('value', id);
  if (!existing && (value === null || value === undefined)) return; // clearing nothing
  if (existing && JSON.stringify(existing.data.value ?? null) === JSON.stringify(value ?? null)) return;
  await saveRecord(run.scope, collections.value, id, {
    id,
    board_id: boardId,
    item_id: itemId,
    attribute_id: attributeId,
    value: value ?? null,
    row_version: existing ? existing.row_version + 1 : 1,
  });
}

async function currentValue(run: ActionRun, attributeId: string): Promise<unknown> {
  return (await run.scope.record('value', valueIdFor(run.item.id, attributeId)))?.data.value ?? null;
}

export async function performAction(run: ActionRun, action: Action, index: number): Promise<void> {
  const { scope, item } = run;
  switch (action.type) {
    case 'set_value': {
      const value = action.relative_days !== undefined ? addDays(dateInZone(scope.now, await run.timezone()), action.relative_days) : (action.value ?? null);
      return saveValue(run, item.id, item.board_id, action.attribute_id, value);
    }
    case 'assign':
    case 'unassign': {
      const now = await currentValue(run, action.attribute_id);
      const members = Array.isArray(now) ? (now as number[]) : [];
      const next = action.type === 'assign' ? [...new Set([...members, ...action.user_ids])] : members.filter((id) => !action.user_ids.includes(id));
      return saveValue(run, item.id, item.board_id, action.attribute_id, next.length ? next : null);
    }
    case 'move_to_folder': {
      const stored = (await scope.record('item', item.id))!;
      if (stored.data.folder_id === action.folder_id) return;
      await saveRecord(scope, collections.item, item.id, { ...stored.data, folder_id: action.folder_id, row_version: stored.row_version + 1 });
      return;
    }
    case 'create_item': {
      const id = newRecordId();
      await saveRecord(scope, collections.item, id, { id, board_id: action.board_id, folder_id: action.folder_id, name: renderTemplate(action.name, await vars(run, action.name)).slice(0, 10_000), position: scope.now.getTime(), row_version: 1 });
      // Text values are templates too ("Follow-up of {{item.name}}").
      const filled = await vars(run, ...action.values.map((v) => (typeof v.value === 'string' ? v.value : '')));
      for (const v of action.values) await saveValue(run, id, action.board_id, v.attribute_id, typeof v.value === 'string' ? renderTemplate(v.value, filled).slice(0, 10_000) : v.value);
      return;
    }
    case 'add_comment': {
      const id = newRecordId();
      const html = `<p>${escapeHtml(renderTemplate(action.text, await vars(run, action.text)))}</p>`;
      await saveRecord(scope, collections.comment, id, { id, board_id: item.board_id, item_id: item.id, parent_id: null, text: { html }, row_version: 1 });
      return;
    }
    case 'notify': {
      const body = renderTemplate(action.message, await vars(run, action.message)).slice(0, 2000);
      // A board notice that names the item goes only to those who may read the item (N2).
      const namesItem = action.on !== 'item' && /\{\{\s*item\./.test(action.message);
      const userIds = namesItem ? ((await ItemAudience.load(run.notify.db, scope.team.id, item.id, action.user_ids))?.readers(action.user_ids) ?? []) : action.user_ids;
      await notifyAutomation(run.notify, `automation:${run.runKey}:${index}`, { teamId: scope.team.id, boardId: item.board_id, itemId: action.on === 'item' ? item.id : null, body, userIds });
      return;
    }
    case 'webhook':
      await sendToWebhook(run, action.url, `${run.runKey}:${index}`);
      return;
  }
}

/** A refusal of the save path as the run log says it ("422 Validation Error: folder_id: …"). */
export function failureText(error: unknown): string {
  if (error instanceof ApiError) return `${error.status} ${error.message}`.slice(0, 1000);
  return (error instanceof Error ? error.message : String(error)).slice(0, 1000);
}
