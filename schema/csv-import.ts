import { z } from 'zod';
import { isValidDate, isValidEmail, normalizeUrl } from './attributes';

/**
 * CSV import (issue #16, decision 0161): what each column becomes, the kind guessed from its
 * cells, and how a cell's text becomes a value. Pure, so the mapping screen (in the browser) and
 * the import job (on the server) read cells alike, and golden-file tests pin both.
 */

/** The spec's row limit (workspace.md §5, "value not shown"): one import, at most this many rows. */
export const CSV_IMPORT_MAX_ROWS = 100_000;
export const CSV_IMPORT_MAX_COLUMNS = 100;
/** The largest CSV text one import takes (the request carries it). */
export const CSV_IMPORT_MAX_BYTES = 40 * 1024 * 1024;
/** A label column becomes options only while it has at most this many distinct values. */
export const LABEL_MAX_OPTIONS = 50;

export const CsvImportMessages = {
  rowLimit: (max: number) => `A CSV import cannot exceed ${max} rows.`,
  selectOneFolder: 'select one folder',
  noRows: 'The file has no rows to import.',
  oneName: 'Choose one column for the item names.',
  tooManyColumns: (max: number) => `A CSV import can have at most ${max} columns.`,
  tooLarge: (mb: number) => `The file is too large. It must be under ${mb} MB.`,
  emptyRow: 'empty row',
  fieldCount: (found: number, expected: number) => `has ${found} fields, the header has ${expected}`,
} as const;

/** The kinds a column can become. */
export const IMPORT_KINDS = ['text', 'long-text', 'number', 'date', 'email', 'link', 'label', 'checkbox'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** How a date column is written; the guesser picks the one every cell fits. */
export const DATE_FORMATS = ['iso', 'dmy', 'mdy'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** A column's target: skipped, the item name, a new attribute, or an existing one of the board. */
export const columnTarget = z.discriminatedUnion('to', [
  z.strictObject({ to: z.literal('skip') }),
  z.strictObject({ to: z.literal('name') }),
  z.strictObject({ to: z.literal('new'), name: z.string().trim().min(1).max(255), kind: z.enum(IMPORT_KINDS), date_format: z.enum(DATE_FORMATS).optional() }),
  z.strictObject({ to: z.literal('existing'), attribute_id: z.string().min(1).max(64), date_format: z.enum(DATE_FORMATS).optional() }),
]);
export type ColumnTarget = z.infer<typeof columnTarget>;

/** POST /api/{teamId}/imports/csv */
export const csvImportBody = z.strictObject({
  board_id: z.string().min(1).max(64),
  /** The one folder the rows go into ("select one folder"). */
  folder_id: z.string().min(1).max(64, CsvImportMessages.selectOneFolder),
  /** The file's name, shown in the progress tray. */
  file_name: z.string().max(255).default('import.csv'),
  /** The CSV as text (the app decodes the file's bytes first: encoding detection happens there). */
  csv: z.string().min(1, CsvImportMessages.noRows).max(CSV_IMPORT_MAX_BYTES, CsvImportMessages.tooLarge(CSV_IMPORT_MAX_BYTES / 1024 / 1024)),
  /** The delimiter detected or chosen; empty: detect again. */
  delimiter: z.string().max(1).default(''),
  /** Whether the first row names the columns. */
  header: z.boolean().default(true),
  /** One target per column, in the file's order. */
  columns: z.array(columnTarget).min(1).max(CSV_IMPORT_MAX_COLUMNS, CsvImportMessages.tooManyColumns(CSV_IMPORT_MAX_COLUMNS)),
});
export type CsvImportBody = z.infer<typeof csvImportBody>;

/**
 * The upload form of the same request (issue #31): multipart/form-data with this JSON in the field
 * `options`, then the CSV's bytes (UTF-8) in the field `file`. `rows`, the count of rows the app
 * read, is only shown as the job's total until the server has read the file itself.
 */
export const csvUploadOptions = csvImportBody.omit({ csv: true }).extend({
  rows: z.number().int().min(0).optional(),
});
export type CsvUploadOptions = z.infer<typeof csvUploadOptions>;

// ── guessing ──────────────────────────────────────────────────────────────────────────────────
export interface KindGuess {
  kind: ImportKind;
  date_format?: DateFormat;
  /** A label column's distinct values, in first-seen order. */
  options?: string[];
}

const NUMBER = /^[-+]?(\d{1,3}([ ,.\u00a0\u202f]\d{3})*|\d+)([.,]\d+)?$/;
const TRUE = new Set(['true', 'yes', 'y', 'x', '1', '✓', '✔']);
const FALSE = new Set(['false', 'no', 'n', '0', '']);
const BOOLEAN = new Set([...TRUE, ...FALSE]);

/**
 * Reads a number as people write it: 1,234.5 / 1.234,5 / 1 234,5 / 12.5 / 12,5. With both marks
 * the last one is the decimal mark; a mark used twice groups thousands; a lone comma before
 * exactly three digits groups thousands (1,234), any other lone mark is the decimal mark.
 */
export function parseNumber(text: string): number | null {
  const t = text.trim();
  if (!NUMBER.test(t)) return null;
  const body = t.replace(/[ \u00a0\u202f]/g, '');
  const dots = body.split('.').length - 1;
  const commas = body.split(',').length - 1;
  let decimal: '.' | ',' | null = null;
  if (dots && commas) decimal = body.lastIndexOf('.') > body.lastIndexOf(',') ? '.' : ',';
  else if (dots === 1) decimal = '.';
  else if (commas === 1) decimal = /,\d{3}$/.test(body) ? null : ',';
  const group = decimal === '.' ? ',' : decimal === ',' ? '.' : /[.,]/;
  const plain = body.split(group).join('');
  const n = Number(decimal === ',' ? plain.replace(',', '.') : plain);
  return Number.isFinite(n) ? n : null;
}

const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const SLASHED = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[ T](\d{1,2}):(\d{2})(?::\d{2})?)?$/;
const pad = (n: string | number) => String(n).padStart(2, '0');

/** A date cell as the board stores it (YYYY-MM-DD, with THH:mm when a time is given), or null. */
export function parseDate(text: string, format: DateFormat): string | null {
  const t = text.trim();
  let y: string, m: string, d: string, hh: string | undefined, mm: string | undefined;
  const iso = ISO.exec(t);
  if (iso) [, y, m, d, hh, mm] = iso as unknown as [string, string, string, string, string?, string?];
  else {
    const s = SLASHED.exec(t);
    if (!s || format === 'iso') return null;
    const [, a, b, year, h, min] = s as unknown as [string, string, string, string, string?, string?];
    [d, m] = format === 'dmy' ? [a, b] : [b, a];
    y = year;
    hh = h;
    mm = min;
  }
  const out = `${y}-${pad(m)}-${pad(d)}${hh !== undefined && mm !== undefined && !(hh === '00' && mm === '00' && !iso) ? `T${pad(hh)}:${mm}` : ''}`;
  return isValidDate(out) ? out : null;
}

const LINK = /^(https?:\/\/|www\.)\S+$/i;

/**
 * The kind a column's cells suggest: every non-empty cell must fit it. Order of preference:
 * checkbox, number, date (ISO, else day-first or month-first: whichever all cells fit, day-first
 * when both do), email, link, label (few distinct values that repeat), long text (long cells),
 * else text.
 */
export function guessKind(cells: readonly string[]): KindGuess {
  const values = cells.map((c) => c.trim()).filter((c) => c !== '');
  if (values.length === 0) return { kind: 'text' };
  const all = (test: (v: string) => boolean) => values.every(test);
  if (all((v) => BOOLEAN.has(v.toLowerCase())) && values.some((v) => !/^\d$/.test(v)) && new Set(values.map((v) => v.toLowerCase())).size <= 2) return { kind: 'checkbox' };
  if (all((v) => parseNumber(v) !== null)) return { kind: 'number' };
  if (all((v) => ISO.test(v) && parseDate(v, 'iso') !== null)) return { kind: 'date', date_format: 'iso' };
  const dmy = all((v) => parseDate(v, 'dmy') !== null);
  const mdy = all((v) => parseDate(v, 'mdy') !== null);
  if (dmy || mdy) return { kind: 'date', date_format: dmy ? 'dmy' : 'mdy' };
  if (all(isValidEmail)) return { kind: 'email' };
  if (all((v) => LINK.test(v) && normalizeUrl(v) !== null)) return { kind: 'link' };
  const distinct = [...new Set(values)];
  if (distinct.length <= LABEL_MAX_OPTIONS && distinct.length < values.length && distinct.every((v) => v.length <= 60) && distinct.length <= Math.max(2, values.length / 2)) {
    return { kind: 'label', options: distinct };
  }
  if (values.some((v) => v.length > 255 || v.includes('\n'))) return { kind: 'long-text' };
  return { kind: 'text' };
}

/** The column most likely to hold the item names: one named like a name/title, else the first text column. */
export function guessNameColumn(headers: readonly string[], guesses: readonly KindGuess[]): number {
  const named = headers.findIndex((h) => /^(name|title|summary|subject|task|item|nom|nombre|titel|titolo|名称|名前|이름)$/i.test(h.trim()));
  if (named >= 0) return named;
  const text = guesses.findIndex((g) => g.kind === 'text');
  return text >= 0 ? text : 0;
}

// ── cells → values ────────────────────────────────────────────────────────────────────────────
export type CellResult = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * A cell's value for an attribute of this kind (label cells give the option's name; the importer
 * turns it into the option id). Empty text is an empty value. Messages are the save path's.
 */
export function cellValue(kind: string, text: string, format: DateFormat = 'iso'): CellResult {
  const t = text.trim();
  if (t === '') return { ok: true, value: null };
  switch (kind) {
    case 'number': {
      const n = parseNumber(t);
      return n === null ? { ok: false, message: 'enter a number' } : { ok: true, value: n };
    }
    case 'date': {
      const d = parseDate(t, format);
      return d === null ? { ok: false, message: 'enter a valid date' } : { ok: true, value: d };
    }
    case 'email':
      return isValidEmail(t) ? { ok: true, value: t } : { ok: false, message: 'enter a valid email address' };
    case 'link': {
      const url = normalizeUrl(t);
      return url ? { ok: true, value: { url } } : { ok: false, message: 'provide a valid URL' };
    }
    case 'checkbox':
      if (TRUE.has(t.toLowerCase())) return { ok: true, value: true };
      if (FALSE.has(t.toLowerCase())) return { ok: true, value: false };
      return { ok: false, message: 'must be checked or unchecked' };
    case 'long-text':
      return t.length > 100_000 ? { ok: false, message: 'the text is longer than 100000 characters' } : { ok: true, value: text };
    case 'label':
    case 'status':
      return { ok: true, value: t };
    default:
      return t.length > 10_000 ? { ok: false, message: 'the text is longer than 10000 characters' } : { ok: true, value: text };
  }
}
