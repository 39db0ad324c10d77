import { resolveViewSettings, type ViewAttribute, type ViewKind } from '../../../schema/views';

/**
 * The attributes whose every value a view places its items by, besides what the folder pane
 * sorts, filters, groups and searches by: the Calendar's date, the Gantt's range or start and end
 * dates, the Chart's attributes and the one it sums. The pane reads them once, into the same
 * in-place-updated value lists as the rest (store/live.ts useAttributeValues), and hands the
 * views one reader (`ViewProps.get`): a view never reads a column of its own. Table, Column and
 * List need nothing more (their rows read their own values per block of rows on screen). Pure.
 */
export function viewValueAttributes(kind: ViewKind, saved: unknown, attributes: readonly ViewAttribute[]): string[] {
  switch (kind) {
    case 'calendar': {
      const s = resolveViewSettings('calendar', saved, attributes);
      return s.date_attribute_id ? [s.date_attribute_id] : [];
    }
    case 'gantt': {
      const s = resolveViewSettings('gantt', saved, attributes);
      return [s.range_attribute_id, s.start_attribute_id, s.end_attribute_id].filter((id): id is string => !!id);
    }
    case 'chart': {
      const s = resolveViewSettings('chart', saved, attributes);
      // The summed attribute first: every panel needs it, and the lists are read in this order.
      return [...(s.aggregate === 'sum' && s.sum_attribute_id ? [s.sum_attribute_id] : []), ...s.attribute_ids];
    }
    default:
      return [];
  }
}
