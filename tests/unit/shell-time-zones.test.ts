import { describe, expect, it } from 'vitest';
import { filterOptions } from '../../src/ui/dropdown-search';
import { formatOffset, timeZoneOptions } from '../../src/screens/profile/time-zone-options';

/** Issue #17 part 6: the time-zone picker's options, grouped by region with the offset now, and found by city, offset or short name. */
describe('time zone options', () => {
  const winter = new Date('2026-01-15T12:00:00Z');
  const zones = ['Europe/Belgrade', 'America/New_York', 'Asia/Tokyo', 'Europe/London', 'America/Argentina/Buenos_Aires', 'UTC', 'Asia/Kolkata'];
  const options = timeZoneOptions(zones, winter);

  it('labels each zone with its region, city and offset, sorted by region then offset', () => {
    expect(new Set(options.map((o) => o.label))).toEqual(
      new Set([
        'America — Argentina / Buenos Aires (GMT-03:00)',
        'America — New York (GMT-05:00)',
        'Asia — Kolkata (GMT+05:30)',
        'Asia — Tokyo (GMT+09:00)',
        'Europe — London (GMT+00:00)',
        'Europe — Belgrade (GMT+01:00)',
        'Other — UTC (GMT+00:00)',
      ]),
    );
    expect(options.map((o) => o.region)).toEqual(['America', 'America', 'Asia', 'Asia', 'Europe', 'Europe', 'Other']);
    // Within a region, by offset: New York (-5) before Buenos Aires (-3).
    expect(options[0]!.value).toBe('America/New_York');
    expect(options[1]!.value).toBe('America/Argentina/Buenos_Aires');
  });

  it('follows summer time (the offset of the given moment)', () => {
    const summer = timeZoneOptions(['Europe/Belgrade'], new Date('2026-07-15T12:00:00Z'));
    expect(summer[0]!.label).toBe('Europe — Belgrade (GMT+02:00)');
  });

  it('is found by city, offset and region through the dropdown search', () => {
    expect(filterOptions(options, 'tok').map((o) => o.value)).toEqual(['Asia/Tokyo']);
    expect(filterOptions(options, 'utc+9').map((o) => o.value)).toEqual(['Asia/Tokyo']);
    expect(filterOptions(options, '+05:30').map((o) => o.value)).toEqual(['Asia/Kolkata']);
    expect(filterOptions(options, 'new york').map((o) => o.value)).toEqual(['America/New_York']);
  });

  it('names a zone the browser lists under an old name by its name today, found by both', () => {
    const [calcutta] = timeZoneOptions(['Asia/Calcutta'], winter);
    expect(calcutta!.label).toBe('Asia — Kolkata (GMT+05:30)');
    expect(filterOptions([calcutta!], 'calc')).toHaveLength(1);
    expect(filterOptions([calcutta!], 'kolk')).toHaveLength(1);
  });

  it('formats offsets', () => {
    expect(formatOffset(0)).toBe('GMT+00:00');
    expect(formatOffset(-210)).toBe('GMT-03:30');
    expect(formatOffset(345)).toBe('GMT+05:45');
  });
});
