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

/**
 * What an export writes for a reference to an item the reader may not read (N5): a neutral mark,
 * never the item's name (it says only that something is linked, as the board's own cell does).
 */
export const HIDDEN_REFERENCE = '—';

/** Several values in one cell (labels, members, references, attachments). */
export const LIST_SEPARATOR = ', ';

export function readableValue(attribute: AttributeRef, value: unknown, lookup: ExportLookup): string {
  if (attribute.kind === 'checkbox') return value === true ? 'Yes' : 'No';
  if (isEmptyValue(value)) return '';
  switch (attribute.kind) {
    case 'status':
    case 'label': {
      const names = optionNames(attribute);
      const ids = Array.isArray(value) ? value : [value];
      return ids.map((id) => names.get(id) ?? '').filter(Boolean).join(LIST_SEPARATOR);
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

/**
 * Option names by id (the first option of an id wins, as a search from the start finds it),
 * remembered per settings object: an export asks for every cell, and reading the settings each
 * time cost more than the rest of the cell. Settings are read, never changed, while exporting.
 */
const optionNamesBySettings = new WeakMap<object, Map<string, Map<unknown, string>>>();
function optionNames(attribute: AttributeRef): Map<unknown, string> {
  const kind = attribute.kind === 'status' ? 'status' : 'label';
  const settings = attribute.settings;
  const byKind = typeof settings === 'object' && settings !== null ? (optionNamesBySettings.get(settings) ?? new Map<string, Map<unknown, string>>()) : null;
  const known = byKind?.get(kind);
  if (known) return known;
  const names = new Map<unknown, string>();
  for (const o of settingsOf(kind, settings).options) if (!names.has(o.id)) names.set(o.id, o.name);
  if (byKind) {
    byKind.set(kind, names);
    optionNamesBySettings.set(settings as object, byKind);
  }
  return names;
}

/** The byte order mark spreadsheet apps need to read UTF-8. */
export const UTF8_BOM = '\ufeff';
