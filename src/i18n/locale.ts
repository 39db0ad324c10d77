import { LOCALES, RTL_LANGUAGES, type Locale } from '../../schema/constants';

/** Default interface locale (shell.md §1: en-US). */
export const DEFAULT_LOCALE: Locale = 'en';

/** The catalog for a language tag: "sr-Latn" → sr, "zh-Hans-CN" → zh, unknown → en. */
export function catalogLocale(tag: string | null | undefined): Locale {
  const language = (tag ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
  return (LOCALES as readonly string[]).includes(language) ? (language as Locale) : DEFAULT_LOCALE;
}

/** The first supported language among the user's setting and the browser's preferences. */
export function pickLocale(userLocale: string | null | undefined, browserLanguages: readonly string[] = []): Locale {
  for (const tag of [userLocale, ...browserLanguages]) {
    if (!tag) continue;
    const language = tag.toLowerCase().split(/[-_]/)[0]!;
    if ((LOCALES as readonly string[]).includes(language)) return language as Locale;
  }
  return DEFAULT_LOCALE;
}

/** Right-to-left for ar, he, fa and ur (shell.md §1). */
export function directionFor(tag: string): 'rtl' | 'ltr' {
  const language = tag.toLowerCase().split(/[-_]/)[0]!;
  return (RTL_LANGUAGES as readonly string[]).includes(language) ? 'rtl' : 'ltr';
}

/** Regions whose week starts on Sunday (0) or Saturday (6); elsewhere Monday (1). Used when Intl has no week info. */
const SUNDAY_REGIONS = new Set(['US', 'CA', 'MX', 'BR', 'JP', 'KR', 'CN', 'TW', 'HK', 'IL', 'IN', 'PH', 'SA', 'ZA', 'AU']);
const SATURDAY_REGIONS = new Set(['EG', 'DZ', 'IQ', 'JO', 'KW', 'LY', 'OM', 'QA', 'SY', 'AE', 'AF', 'IR', 'SD']);
/** The region a bare language usually means, for the week-start fallback. */
const LIKELY_REGION: Record<string, string> = { en: 'US', ar: 'EG', zh: 'CN', ko: 'KR', sr: 'RS', es: 'ES', it: 'IT', de: 'DE', fr: 'FR', pl: 'PL', tr: 'TR' };

/**
 * The first day of the week, 0 = Sunday … 6 = Saturday: the user's setting when given, else the
 * locale's (Intl week info where the browser has it, else a small region table).
 */
export function weekStart(tag: string, userSetting?: number | null): number {
  if (typeof userSetting === 'number' && userSetting >= 0 && userSetting <= 6) return userSetting;
  try {
    const locale = new Intl.Locale(tag) as Intl.Locale & { getWeekInfo?: () => { firstDay: number }; weekInfo?: { firstDay: number } };
    const info = locale.getWeekInfo?.() ?? locale.weekInfo;
    if (info && typeof info.firstDay === 'number') return info.firstDay % 7; // Intl: 7 = Sunday
  } catch {
    /* fall back */
  }
  const parts = tag.split(/[-_]/);
  const region = parts.find((p, i) => i > 0 && /^[A-Z]{2}$/i.test(p))?.toUpperCase() ?? LIKELY_REGION[parts[0]!.toLowerCase()] ?? 'US';
  if (SUNDAY_REGIONS.has(region)) return 0;
  if (SATURDAY_REGIONS.has(region)) return 6;
  return 1;
}

/** Dates and numbers in the locale's own conventions. */
export function formatDate(value: Date | string | number, tag: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }, timeZone?: string | null): string {
  const date = value instanceof Date ? value : new Date(value);
  return new Intl.DateTimeFormat(tag, { ...options, ...(timeZone ? { timeZone } : {}) }).format(date);
}

export function formatNumber(value: number, tag: string, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(tag, options).format(value);
}
