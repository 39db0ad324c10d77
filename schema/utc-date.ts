/**
 * The spec's date format (shell.md §9: "Date format YYYY-MM-DD HH:mm:ss in UTC"; issue #27 S9.12),
 * used for exact timestamps: the hover text of every "when" in comments, the activity log and the
 * workspace's recent activity (src/boards/comments/when.ts). Relative times ("5 minutes ago") stay
 * in the user's language.
 */
export const UTC_DATE_FORMAT = 'YYYY-MM-DD HH:mm:ss';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `value` as YYYY-MM-DD HH:mm:ss in UTC, or '' for something that is no date. */
export function formatUtc(value: Date | string | number): string {
  const time = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(time)) return '';
  const d = new Date(time);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}
