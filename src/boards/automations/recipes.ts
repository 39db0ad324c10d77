import type { AutomationDraft } from './automations-store';
import type { Attribute, Folder } from '../store/live';
import { settingsOf } from '../../../schema/attributes';

/**
 * Ready-made automations for the board as it is ("When Status is Done, move to the Done
 * folder"): each recipe fills what it can from the board's attributes and folders and leaves the
 * rest to the builder. Pure; titles are translated by the panel.
 */
export type RecipeId = 'done-to-folder' | 'created-comment' | 'due-notify' | 'button-done' | 'moved-clear';

export interface Recipe {
  id: RecipeId;
  draft: AutomationDraft;
}

const draft = (fields: Partial<AutomationDraft>): AutomationDraft => ({ name: '', enabled: true, trigger: null, conditions: [], match: 'all', actions: [], ...fields });

/** What a recipe writes in the user's language, and the zone its date trigger is read in. */
export interface RecipeTexts {
  zone: string;
  /** The welcome comment ({{item.name}} is filled in). */
  welcome: string;
  /** The message a day before the due date. */
  dueTomorrow: string;
}

export function recipesFor(attributes: readonly Attribute[], folders: readonly Folder[], boardId: string, userId: number | null, texts: RecipeTexts): Recipe[] {
  const live = attributes.filter((a) => !a.deleted_at);
  const status = live.find((a) => a.kind === 'status');
  const doneOption = status ? (settingsOf('status', status.settings).options.find((o) => o.done) ?? settingsOf('status', status.settings).options.at(-1)) : undefined;
  const doneFolder = folders.find((f) => f.id !== boardId && /done|archive/i.test(f.name)) ?? folders.find((f) => f.id !== boardId);
  const date = live.find((a) => a.kind === 'date');
  const button = live.find((a) => a.kind === 'button');
  const zone = texts.zone;
  const me = userId === null ? [] : [userId];
  return [
    {
      id: 'done-to-folder',
      draft: draft({
        trigger: status ? { type: 'value_changed', attribute_id: status.id, ...(doneOption ? { to: doneOption.id } : {}) } : { type: 'value_changed' },
        actions: [doneFolder ? { type: 'move_to_folder', folder_id: doneFolder.id } : { type: 'move_to_folder' }],
      }),
    },
    { id: 'created-comment', draft: draft({ trigger: { type: 'item_created' }, actions: [{ type: 'add_comment', text: texts.welcome }] }) },
    {
      id: 'due-notify',
      draft: draft({
        trigger: date ? { type: 'date_arrives', attribute_id: date.id, time: '09:00', offset_days: -1, timezone: zone } : { type: 'date_arrives' },
        actions: [{ type: 'notify', user_ids: me, on: 'item', message: texts.dueTomorrow }],
      }),
    },
    {
      id: 'button-done',
      draft: draft({
        trigger: button ? { type: 'button_clicked', attribute_id: button.id } : { type: 'button_clicked' },
        actions: [status && doneOption ? { type: 'set_value', attribute_id: status.id, value: doneOption.id } : { type: 'set_value' }],
      }),
    },
    {
      id: 'moved-clear',
      draft: draft({ trigger: { type: 'item_moved', ...(doneFolder ? { folder_id: doneFolder.id } : {}) }, actions: date ? [{ type: 'set_value', attribute_id: date.id, value: null }] : [{ type: 'set_value' }] }),
    },
  ];
}
