import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogLocale, directionFor, formatDate, formatNumber, pickLocale, weekStart } from '../../src/i18n/locale';
import { LOCALES } from '../../schema/constants';

describe('locale choice', () => {
  it('maps language tags to catalogs', () => {
    expect(catalogLocale('en-US')).toBe('en');
    expect(catalogLocale('sr-Latn-RS')).toBe('sr');
    expect(catalogLocale('zh_CN')).toBe('zh');
    expect(catalogLocale('pt-BR')).toBe('en');
    expect(catalogLocale(null)).toBe('en');
  });

  it('prefers the user setting, then the browser languages', () => {
    expect(pickLocale('de-DE', ['fr'])).toBe('de');
    expect(pickLocale(null, ['pt-BR', 'ko-KR'])).toBe('ko');
    expect(pickLocale('xx', [])).toBe('en');
  });

  it('is right to left for ar, he, fa and ur only', () => {
    for (const tag of ['ar', 'ar-EG', 'he', 'fa-IR', 'ur']) expect(directionFor(tag)).toBe('rtl');
    for (const tag of ['en', 'de', 'zh', 'tr']) expect(directionFor(tag)).toBe('ltr');
  });
});

describe('week start', () => {
  it('uses the user setting when given', () => {
    expect(weekStart('en-US', 3)).toBe(3);
    expect(weekStart('de-DE', 0)).toBe(0);
  });

  it('follows the locale otherwise', () => {
    expect(weekStart('en-US')).toBe(0);
    expect(weekStart('de-DE')).toBe(1);
    expect(weekStart('fr')).toBe(1);
    expect(weekStart('ar-EG')).toBe(6);
  });

  it('ignores an out-of-range setting', () => {
    expect(weekStart('de-DE', 9)).toBe(1);
  });
});

describe('formatting through Intl', () => {
  it('formats dates and numbers for the locale', () => {
    const date = new Date(Date.UTC(2026, 0, 31, 12));
    expect(formatDate(date, 'de-DE', { dateStyle: 'short' }, 'UTC')).toBe('31.01.26');
    expect(formatDate(date, 'en-US', { dateStyle: 'short' }, 'UTC')).toBe('1/31/26');
    expect(formatNumber(1234.5, 'de-DE')).toBe('1.234,5');
    expect(formatNumber(1234.5, 'en-US')).toBe('1,234.5');
  });
});

/** Reads msgid → msgstr from a .po file (single-line entries, as Lingui writes them). */
function readPo(file: string): Map<string, string> {
  const text = fs.readFileSync(file, 'utf8');
  const entries = new Map<string, string>();
  const re = /^msgid "(.*)"\nmsgstr "(.*)"$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) if (m[1]) entries.set(m[1], m[2]!);
  return entries;
}

/** The placeholder names a message uses, not how often: a plural with more forms than English repeats them. */
const placeholderNames = (s: string) => [...new Set(s.match(/\{\w+\}/g) ?? [])].sort();

describe('catalogs', () => {
  const dir = path.resolve('locales');
  const source = readPo(path.join(dir, 'en', 'messages.po'));

  it('exist for every interface language', () => {
    for (const locale of LOCALES) expect(fs.existsSync(path.join(dir, locale, 'messages.po')), locale).toBe(true);
    expect(source.size).toBeGreaterThan(50);
  });

  it.each(LOCALES.filter((l) => l !== 'en'))('%s translates every message and keeps its placeholders', (locale) => {
    const catalog = readPo(path.join(dir, locale, 'messages.po'));
    const untranslated = [...source.keys()].filter((id) => !catalog.get(id));
    expect(untranslated).toEqual([]);
    for (const [id, text] of catalog) {
      expect(placeholderNames(text), `${locale}: ${id}`).toEqual(placeholderNames(id));
    }
  });
});

describe('server catalogs (mail and push texts, decision 0155)', () => {
  const dir = path.resolve('locales');
  const source = readPo(path.join(dir, 'en', 'server.po'));

  it('exist for every language, with the messages of the server’s l10n calls', () => {
    for (const locale of LOCALES) expect(fs.existsSync(path.join(dir, locale, 'server.po')), locale).toBe(true);
    expect([...source.keys()]).toContain('{who} commented on {item}');
  });

  it.each(LOCALES.filter((l) => l !== 'en'))('%s translates every server message and keeps its placeholders', (locale) => {
    const catalog = readPo(path.join(dir, locale, 'server.po'));
    expect([...source.keys()].filter((id) => !catalog.get(id))).toEqual([]);
    for (const [id, text] of catalog) {
      expect(placeholderNames(text), `${locale}: ${id}`).toEqual(placeholderNames(id));
      // ICU: an ASCII apostrophe would quote what follows it (translations use ’).
      expect(text.includes("'"), `${locale}: ${id}`).toBe(false);
    }
  });
});
