import { describe, expect, it } from 'vitest';
import { formatUtc, UTC_DATE_FORMAT } from '../../schema/utc-date';
import { exactTime } from '../../src/boards/comments/when';

/** S9.12: exact times in the spec's format, YYYY-MM-DD HH:mm:ss in UTC, whatever the time zone. */
describe('the spec’s UTC date format', () => {
  it('formats dates, ISO texts and epoch milliseconds as YYYY-MM-DD HH:mm:ss in UTC', () => {
    expect(UTC_DATE_FORMAT).toBe('YYYY-MM-DD HH:mm:ss');
    expect(formatUtc('2026-03-05T07:08:09.987+02:00')).toBe('2026-03-05 05:08:09');
    expect(formatUtc(new Date(Date.UTC(999, 0, 1, 0, 0, 0)))).toBe('0999-01-01 00:00:00');
    expect(formatUtc(Date.UTC(2026, 11, 31, 23, 59, 59))).toBe('2026-12-31 23:59:59');
    expect(formatUtc('not a date')).toBe('');
  });

  it('is the tooltip of every "when" (comments, activity), marked UTC', () => {
    expect(exactTime('2026-11-29T23:30:00-05:00', 'de')).toBe('2026-11-30 04:30:00 UTC');
    expect(exactTime(null, 'en')).toBe('');
    expect(exactTime('garbage', 'en')).toBe('');
  });
});
