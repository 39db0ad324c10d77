import { isEmptyValue, settingsOf, type Attachment, type DateRange, type LinkValue } from './attributes';
import type { AttributeRef } from './filters';

/**
 * CSV export (issue #16, decision 0161): a value as the text people read in a spreadsheet —
 * option names, people's names, dates as the board writes them, "Yes"/"No" — which the CSV
 * import reads back to the same values. Pure; golden-file tests pin it.
 */

export interface ExportLookup {
  /** A member's name (or email) by user id. */
  userName(id: number): string | undefined;
  /** An item's name by id (reference attributes). */
  itemName(id: string): string | undefined;
}

/** Several values in one cell (labels, members, references, attachments). */
export const LIST_SEPARATOR = ', ';

export function readableValue(attribute: AttributeRef, value: unknown, lookup: ExportLookup): string {
  if (attribute.kind === 'checkbox') return value === true ? 'Yes' : 'No';
  if (isEmptyValue(value)) return '';
  switch (attribute.kind) {
    case 'status':
    case 'label': {
      const options = settingsOf(attribute.kind === 'status' ? 'status' : 'label', attribute.settings).options;
      const ids = Array.isArray(value) ? value : [value];
      return ids.map((id) => options.find((o) => o.id === id)?.name ?? '').filter(Boolean).join(LIST_SEPARATOR);
    }
    case 'members':
      return (value as number[]).map((id) => lookup.userName(id) ?? '').filter(Boolean).join(LIST_SEPARATOR);
    case 'reference':
      return (value as string[]).map((id) => lookup.itemName(id) ?? '').filter(Boolean).join(LIST_SEPARATOR);
    case 'link':
      return (value as LinkValue).url;
    case 'date':
      return typeof value === 'string' ? value.replace('T', ' ') : '';
    case 'date-range':
      return `${(value as DateRange).start.replace('T', ' ')} – ${(value as DateRange).end.replace('T', ' ')}`;
    case 'attachments':
      return (value as Attachment[]).map((a) => a.url).join(LIST_SEPARATOR);
    case 'number':
      return typeof value === 'number' ? String(value) : '';
    default:
      return typeof value === 'string' ? value : Array.isArray(value) ? value.join(LIST_SEPARATOR) : JSON.stringify(value);
  }
}

/** The byte order mark spreadsheet apps need to read UTF-8. */
export const UTF8_BOM = '\ufeff';
