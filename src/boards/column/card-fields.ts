import type { ViewSettings } from '../../../schema/views';
import { orderedColumns, type ColumnAttribute } from '../model/columns';

/** Kinds a card can show in a line (a long text, a file list or a button does not fit a card). */
const CARD_KINDS = new Set(['members', 'date', 'date-range', 'label', 'status', 'number', 'checkbox', 'text', 'email', 'link', 'reference']);
/** At most this many values on a card, so cards stay calm. */
export const MAX_CARD_FIELDS = 4;

/**
 * What a Column view's cards show besides the name (issue #17 part 4): the view's own columns —
 * the attributes it shows, in its order (the Attributes dialog hides and orders them) — without the
 * one the columns are made of and the name, at most MAX_CARD_FIELDS. Owner, date and labels
 * therefore appear on cards as soon as the board has them. Pure.
 */
export function cardFields<A extends ColumnAttribute>(attributes: readonly A[], settings: Pick<ViewSettings, 'column_order' | 'hidden_columns'>, groupBy: string | null | undefined): A[] {
  return orderedColumns(attributes, settings)
    .filter((a) => a.kind !== 'primary' && a.id !== groupBy && CARD_KINDS.has(a.kind))
    .slice(0, MAX_CARD_FIELDS);
}
