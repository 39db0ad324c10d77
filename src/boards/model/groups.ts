import { AttributeMessages, settingsOf } from '../../../schema/attributes';
import { EMPTY_GROUP, type AttributeRef } from './query';

/**
 * The group rules of workspace.md §5 for the Column (kanban) view and grouped tables:
 *   - "Items cannot be created or moved into certain groups or when grouped by certain attributes"
 *   - "A label cannot be chosen with multiple selections"
 *   - "Disable hide-empty-groups first"
 *   - "No item creation in the board overview"
 * Each function answers with the message to show, or null when the action is allowed.
 */

export const GroupMessages = {
  notGroupable: 'Items cannot be grouped into columns by this attribute.',
  cannotMoveHere: 'Items cannot be created or moved into this group.',
  cannotMoveByAttribute: 'Items cannot be created or moved while grouped by this attribute.',
  disableHideEmptyFirst: 'Disable hide-empty-groups first.',
  noCreateInOverview: 'No item creation in the board overview.',
  multipleLabel: AttributeMessages.multipleLabel,
} as const;

/** Column views group by a single-choice option attribute: a status, or a label without multiple. */
export function columnGroupProblem(attribute: AttributeRef): string | null {
  if (attribute.kind === 'status') return null;
  if (attribute.kind === 'label') return settingsOf('label', attribute.settings).multiple ? GroupMessages.multipleLabel : null;
  return GroupMessages.notGroupable;
}

/** Kinds whose group key maps back to exactly one value, so an item can be dropped into a group. */
const WRITABLE_GROUP_KINDS = new Set(['status', 'label', 'checkbox', 'text', 'number', 'date', 'email']);

/** Whether items can be created in / moved between the groups of this attribute at all. */
export function groupWriteProblem(attribute: AttributeRef): string | null {
  if (!WRITABLE_GROUP_KINDS.has(attribute.kind)) return GroupMessages.cannotMoveByAttribute;
  if (attribute.kind === 'label' && settingsOf('label', attribute.settings).multiple) return GroupMessages.multipleLabel;
  return null;
}

/**
 * Why an item cannot be moved (or created) into the group `key`. Groups of options that no longer
 * exist (a deleted status still held by old items) accept no new items.
 */
export function moveIntoGroupProblem(attribute: AttributeRef, key: string): string | null {
  const byAttribute = groupWriteProblem(attribute);
  if (byAttribute) return byAttribute;
  if (key === EMPTY_GROUP) return null;
  if (attribute.kind === 'status' || attribute.kind === 'label') {
    const options = settingsOf(attribute.kind === 'status' ? 'status' : 'label', attribute.settings).options;
    if (!options.some((o) => o.id === key)) return GroupMessages.cannotMoveHere;
  }
  return null;
}

/** The value an item gets when it lands in group `key` (after moveIntoGroupProblem said yes). */
export function valueForGroup(attribute: AttributeRef, key: string): unknown {
  if (attribute.kind === 'checkbox') return key === 'true';
  if (key === EMPTY_GROUP) return null;
  if (attribute.kind === 'number') return Number(key);
  return key;
}

/** Adding or reordering groups while empty ones are hidden would act on groups the user cannot see. */
export function arrangeGroupsProblem(hideEmptyGroups: boolean): string | null {
  return hideEmptyGroups ? GroupMessages.disableHideEmptyFirst : null;
}

/** The board overview (the board root showing every folder's items) has no single folder to create in. */
export function createItemProblem(opts: { isOverview: boolean; attribute?: AttributeRef | null; groupKey?: string | null }): string | null {
  if (opts.isOverview) return GroupMessages.noCreateInOverview;
  if (opts.attribute && opts.groupKey !== undefined && opts.groupKey !== null) return moveIntoGroupProblem(opts.attribute, opts.groupKey);
  return null;
}
