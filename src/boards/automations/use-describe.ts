import { useLingui } from '@lingui/react/macro';
import { actionSchema, triggerSchema, type Action, type Trigger } from '../../../schema/automations';
import { settingsOf } from '../../../schema/attributes';
import { useBoard } from '../BoardContext';
import { useKnownBoards } from '../store/live';
import type { AutomationDraft } from './automations-store';

/**
 * An automation read as a sentence in the user's language: "When Status changes to Done, then
 * move item to Archive". The list shows it; the builder shows it as it is being built.
 */
export function useDescribe(): (automation: Pick<AutomationDraft, 'trigger' | 'actions' | 'conditions'>) => string {
  const { t } = useLingui();
  const board = useBoard();
  const boards = useKnownBoards(board.teamId);
  const attributeName = (id: string) => board.attributes.find((a) => a.id === id)?.name ?? t`(missing attribute)`;
  const folderName = (id: string) => board.folders.find((f) => f.id === id)?.name ?? t`(missing folder)`;
  const memberNames = (ids: number[]) => ids.map((id) => board.info?.members.find((m) => m.id === id)?.name ?? t`Removed User`).join(', ');

  const valueText = (attributeId: string, value: unknown): string => {
    const attribute = board.attributes.find((a) => a.id === attributeId);
    if (value === null || value === undefined || value === '') return t`nothing`;
    if (attribute && (attribute.kind === 'status' || attribute.kind === 'label')) {
      const options = settingsOf(attribute.kind, attribute.settings).options;
      const ids = Array.isArray(value) ? value : [value];
      return ids.map((id) => options.find((o) => o.id === id)?.name ?? String(id)).join(', ');
    }
    if (attribute?.kind === 'checkbox') return value ? t`checked` : t`unchecked`;
    if (attribute?.kind === 'members') return memberNames(Array.isArray(value) ? (value as number[]) : [value as number]);
    return String(value);
  };

  const when = (trigger: Trigger): string => {
    switch (trigger.type) {
      case 'item_created':
        return t`When an item is created`;
      case 'value_changed': {
        const name = attributeName(trigger.attribute_id);
        if (trigger.to === undefined) return t`When ${name} changes`;
        const to = valueText(trigger.attribute_id, trigger.to);
        return t`When ${name} changes to ${to}`;
      }
      case 'date_arrives': {
        const name = attributeName(trigger.attribute_id);
        const time = trigger.time;
        const days = Math.abs(trigger.offset_days);
        if (trigger.offset_days < 0) return t`When ${name} is ${days} days away, at ${time}`;
        if (trigger.offset_days > 0) return t`When ${name} was ${days} days ago, at ${time}`;
        return t`When ${name} arrives, at ${time}`;
      }
      case 'comment_added':
        return t`When a comment is added`;
      case 'button_clicked': {
        const name = attributeName(trigger.attribute_id);
        return t`When ${name} is clicked`;
      }
      case 'item_moved': {
        if (!trigger.folder_id) return t`When an item moves to another folder`;
        const folder = folderName(trigger.folder_id);
        return t`When an item moves to ${folder}`;
      }
    }
  };

  const then = (action: Action): string => {
    switch (action.type) {
      case 'set_value': {
        const name = attributeName(action.attribute_id);
        if (action.relative_days !== undefined) {
          const days = action.relative_days;
          return t`set ${name} to today + ${days} days`;
        }
        if (action.value === null || action.value === undefined) return t`clear ${name}`;
        const to = valueText(action.attribute_id, action.value);
        return t`set ${name} to ${to}`;
      }
      case 'assign': {
        const who = memberNames(action.user_ids);
        const name = attributeName(action.attribute_id);
        return t`assign ${who} in ${name}`;
      }
      case 'unassign': {
        const who = memberNames(action.user_ids);
        const name = attributeName(action.attribute_id);
        return t`unassign ${who} from ${name}`;
      }
      case 'move_to_folder': {
        const folder = folderName(action.folder_id);
        return t`move item to ${folder}`;
      }
      case 'create_item': {
        const name = action.name;
        if (action.board_id === board.boardId) return t`create item “${name}”`;
        const boardName = boards?.find((b) => b.id === action.board_id)?.name ?? t`another board`;
        return t`create item “${name}” in ${boardName}`;
      }
      case 'add_comment':
        return t`add a comment`;
      case 'notify': {
        const who = memberNames(action.user_ids);
        return t`notify ${who}`;
      }
      case 'webhook': {
        const url = action.url;
        return t`send to ${url}`;
      }
    }
  };

  return (automation) => {
    const trigger = triggerSchema.safeParse(automation.trigger ?? undefined);
    const first = trigger.success ? when(trigger.data) : t`When …`;
    const actions = automation.actions.map((a) => actionSchema.safeParse(a)).map((a) => (a.success ? then(a.data) : '…'));
    const count = automation.conditions.length;
    const conditions = count ? t`(if ${count} conditions hold)` : '';
    const list = actions.length ? actions.join(t`, and `) : '…';
    const thenWord = t`then`;
    return [first, conditions].filter(Boolean).join(' ') + `, ${thenWord} ${list}`;
  };
}
