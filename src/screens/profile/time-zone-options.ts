/**
 * The time-zone picker's options (issue #17 part 6): every IANA zone the browser knows, grouped by
 * region (the label starts with it and the list is sorted by region, then by the offset now, then
 * by city), each with its current offset, found by city, region, offset ("+01", "UTC+1") or short
 * name ("CET"). Pure: the locale and the moment are given (tests/unit/shell-time-zones.test.ts).
 */
export interface ZoneOption {
  value: string;
  label: string;
  region: string;
  offsetMinutes: number;
  synonyms: string[];
}

function offsetMinutes(zone: string, at: Date): number {
  const text = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(text);
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `GMT${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Today's names of zones the browser may still list under an old one (Chromium: Asia/Calcutta). */
const NEW_NAMES: Record<string, string> = {
  'Asia/Calcutta': 'Kolkata',
  'Europe/Kiev': 'Kyiv',
  'Asia/Saigon': 'Ho Chi Minh',
  'Asia/Rangoon': 'Yangon',
  'Asia/Katmandu': 'Kathmandu',
  'Atlantic/Faeroe': 'Faroe',
  'America/Godthab': 'Nuuk',
};

export function zoneOption(zone: string, at: Date = new Date()): ZoneOption {
  const parts = zone.split('/');
  const region = parts.length > 1 ? parts[0]! : 'Other';
  const city = NEW_NAMES[zone] ?? (parts.length > 1 ? parts.slice(1).join(' / ') : zone).replace(/_/g, ' ');
  const offset = offsetMinutes(zone, at);
  const offsetText = formatOffset(offset);
  let short = '';
  try {
    short = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '';
  } catch {
    /* no short name */
  }
  const hours = offset / 60;
  const synonyms = [region, city, parts.slice(1).join(' ').replace(/_/g, ' '), offsetText.slice(3), `UTC${hours >= 0 ? '+' : ''}${hours}`, `GMT${hours >= 0 ? '+' : ''}${hours}`, short, zone].filter(Boolean);
  return { value: zone, label: `${region} — ${city} (${offsetText})`, region, offsetMinutes: offset, synonyms };
}

export function timeZoneOptions(zones: readonly string[], at: Date = new Date()): ZoneOption[] {
  const options = zones.flatMap((zone) => {
    try {
      return [zoneOption(zone, at)];
    } catch {
      return [];
    }
  });
  return options.sort((a, b) => a.region.localeCompare(b.region) || a.offsetMinutes - b.offsetMinutes || a.label.localeCompare(b.label));
}
