/**
 * "5 minutes ago" for recent times, the date and time after a week (pure; the locale's own words
 * through Intl). Shared by comments and the activity log.
 */
import { formatUtc } from '../../../schema/utc-date';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
];

export function whenText(iso: string | null | undefined, locale: string, now: number = Date.now()): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  let delta = Math.round((at - now) / 1000);
  if (Math.abs(delta) < 45) return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(0, 'second');
  for (const [unit, size] of UNITS) {
    if (Math.abs(delta) < size) return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(delta, unit);
    delta = Math.round(delta / size);
  }
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
}

/**
 * The exact date and time, for a tooltip: the spec's format, YYYY-MM-DD HH:mm:ss in UTC (shell.md
 * §9, S9.12), marked UTC so nobody takes it for their local time. `_locale` is kept for callers.
 */
export function exactTime(iso: string | null | undefined, _locale?: string): string {
  if (!iso || Number.isNaN(Date.parse(iso))) return '';
  return `${formatUtc(iso)} UTC`;
}
