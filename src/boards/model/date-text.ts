import { isValidDate } from '../../../schema/attributes';

/**
 * Dates typed into a cell (issue #30 part 6, review M3; decision 0354): the format the cells show
 * (2026-12-04) and the user's locale's numeric format (12/04/2026 in en-US, 04.12.2026 in de,
 * 2026. 12. 4. in ko) are both read, with any separator, one- or two-digit days and months, a
 * two-digit year (20xx) and eight digits with no separator in the locale's order. Pure.
 */

export type Part = 'd' | 'm' | 'y';

export interface LocaleDateFormat {
  /** The order of day, month and year in the locale's short numeric date. */
  order: Part[];
  /** What a user sees as the expected input, e.g. "MM/DD/YYYY". */
  pattern: string;
}

const formats = new Map<string, LocaleDateFormat>();

export function localeDateFormat(locale: string): LocaleDateFormat {
  let format = formats.get(locale);
  if (format) return format;
  let parts: Intl.DateTimeFormatPart[];
  try {
    // Latin digits whatever the locale's own (Arabic shows ٢٠٢٦ otherwise): what a keyboard types.
    parts = new Intl.DateTimeFormat(`${locale}-u-nu-latn`, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' }).formatToParts(new Date(Date.UTC(2026, 10, 22)));
  } catch {
    parts = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' }).formatToParts(new Date(Date.UTC(2026, 10, 22)));
  }
  const order: Part[] = [];
  let pattern = '';
  for (const p of parts) {
    if (p.type === 'day') (order.push('d'), (pattern += 'DD'));
    else if (p.type === 'month') (order.push('m'), (pattern += 'MM'));
    else if (p.type === 'year') (order.push('y'), (pattern += 'YYYY'));
    else if (p.type === 'literal') pattern += p.value.replace(/[\u200e\u200f\u061c]/g, '');
  }
  format = { order: order.length === 3 ? order : ['m', 'd', 'y'], pattern: pattern.trim() };
  formats.set(locale, format);
  return format;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function build(y: number, m: number, d: number): string | null {
  const iso = `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
  return isValidDate(iso) ? iso : null;
}

/** The ISO date (YYYY-MM-DD) a typed text means, or null when it is not a date. */
export function parseDateText(text: string, locale: string): string | null {
  const s = text.trim();
  if (!s) return null;
  // Year first (the cells' format, and 2026/12/04 or 2026. 12. 4.): always year, month, day.
  const yearFirst = /^(\d{4})\D+(\d{1,2})\D+(\d{1,2})\D*$/.exec(s);
  if (yearFirst) return build(Number(yearFirst[1]), Number(yearFirst[2]), Number(yearFirst[3]));
  const { order } = localeDateFormat(locale);
  let numbers: string[];
  if (/^\d{8}$/.test(s)) {
    // Eight digits in the locale's order: 12042026 (en-US), 04122026 (de), 20261204.
    numbers = [];
    let at = 0;
    for (const part of order) {
      const width = part === 'y' ? 4 : 2;
      numbers.push(s.slice(at, at + width));
      at += width;
    }
  } else {
    numbers = s.split(/\D+/).filter(Boolean);
    if (numbers.length !== 3 || !/^[\d\s./\-,]+$/u.test(s.replace(/[\u200e\u200f\u061c]/g, ''))) return null;
  }
  const value: Record<Part, number> = { d: 0, m: 0, y: 0 };
  order.forEach((part, i) => (value[part] = Number(numbers[i])));
  if (numbers[order.indexOf('y')]!.length <= 2) value.y += 2000;
  return build(value.y, value.m, value.d);
}

/** A Date at local midnight for an ISO day (what a calendar marks), or undefined. */
export function dayOf(iso: string | null | undefined): Date | undefined {
  const m = iso ? /^(\d{4})-(\d{2})-(\d{2})/.exec(iso) : null;
  return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : undefined;
}

/** The ISO day of a calendar's local Date. */
export function isoOf(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
