/**
 * Time zone confirmation (shell.md §3 "confirmed timezone"): when the profile names a time zone and
 * this device is in another one, the app asks once which to use. The answer is remembered per
 * device zone, so travelling to a third zone asks again, and a profile without a zone (it follows
 * the device) never asks.
 */
export function deviceTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** Whether two zone names mean the same clock now (Europe/Kiev and Europe/Kyiv; UTC and Etc/UTC). */
export function sameOffsetNow(a: string, b: string, at: Date = new Date()): boolean {
  try {
    const fmt = (timeZone: string) => new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).format(at).split(' ').pop();
    return fmt(a) === fmt(b) && new Intl.DateTimeFormat('en-US', { timeZone: a }).resolvedOptions().timeZone === new Intl.DateTimeFormat('en-US', { timeZone: b }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
}

export function needsTimeZoneConfirmation(profileZone: string | null | undefined, deviceZone: string | null, confirmedFor: string | null): boolean {
  if (!profileZone || !deviceZone) return false;
  if (profileZone === deviceZone || sameOffsetNow(profileZone, deviceZone)) return false;
  return confirmedFor !== deviceZone;
}

/** "Europe/Belgrade (GMT+01:00)": the zone with its offset now, for the question's text. */
export function zoneLabel(zone: string, locale?: string, at: Date = new Date()): string {
  try {
    const offset = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value;
    return offset ? `${zone.replace(/_/g, ' ')} (${offset})` : zone.replace(/_/g, ' ');
  } catch {
    return zone;
  }
}
