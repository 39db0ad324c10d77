import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../schema/constants';
import { BUILTIN_FILES, builtinContent } from '../../server/templates/builtin';
import { BUILTIN_TRANSLATIONS, localiseTemplate, mapTemplateStrings, templateStrings } from '../../server/templates/localise';

/**
 * Built-in templates in 11 languages (issue #16): every user-visible string of every built-in
 * (collected by the same function that translates them) has a translation in every locale file,
 * keeps its {{…}} placeholders and line breaks, and names that must differ stay different.
 */

const placeholders = (text: string) => (text.match(/\{\{[^}]*\}\}/g) ?? []).sort();
const translated = LOCALES.filter((l) => l !== 'en') as Exclude<(typeof LOCALES)[number], 'en'>[];

describe('built-in template translations', () => {
  const all = new Set(BUILTIN_FILES.flatMap((file) => templateStrings(builtinContent(file))));

  it('collects the strings people read and leaves ids, colours, emails and URLs alone', () => {
    const bug = templateStrings(builtinContent(BUILTIN_FILES.find((f) => f.id === 'bug-tracker')!));
    for (const text of ['Bug tracker', 'Severity', 'Won\'t fix', 'By severity', 'Export drops the last row', 'Support ticket', 'Ask to verify a fix', 'Marked as fixed: please verify {{item.name}} on the next build.']) expect(bug).toContain(text);
    expect(bug.some((s) => s.startsWith('1. Open the login page'))).toBe(true);
    for (const text of ['a_status', 'wontfix', '#C4314B', 'BUG-', 'status', 'https://example.com/support/4821', 'triage']) expect(bug).not.toContain(text);
    const crm = templateStrings(builtinContent(BUILTIN_FILES.find((f) => f.id === 'crm-pipeline')!));
    expect(crm).toContain('Hand over to onboarding'); // a text value an automation sets
    expect(crm.some((s) => s.includes('@'))).toBe(false);
    expect(all.size).toBeGreaterThan(250);
  });

  for (const locale of translated) {
    it(`has every string in ${locale}, with its placeholders and line breaks`, () => {
      const table = BUILTIN_TRANSLATIONS[locale];
      const missing = [...all].filter((text) => !table[text]?.trim());
      expect(missing, `missing in server/templates/builtin-i18n/${locale}.json`).toEqual([]);
      for (const text of all) {
        const t = table[text]!;
        expect(placeholders(t), `${locale}: ${text}`).toEqual(placeholders(text));
        expect(t.split('\n').length, `${locale}: ${text}`).toBe(text.split('\n').length);
        expect(t, `${locale}: ASCII apostrophe in ${t}`).not.toMatch(/'/);
      }
      // No stale entries: a key that no template uses any more is a leftover.
      expect(Object.keys(table).filter((key) => !all.has(key))).toEqual([]);
    });

    it(`keeps different names different in ${locale} (attributes, options of one attribute, views)`, () => {
      for (const file of BUILTIN_FILES) {
        const content = localiseTemplate(builtinContent(file), locale);
        const english = builtinContent(file);
        const distinct = (names: string[]) => new Set(names).size;
        expect(distinct(content.attributes.map((a) => a.name)), `${locale} ${file.id} attributes`).toBe(distinct(english.attributes.map((a) => a.name)));
        expect(distinct(content.views.map((v) => v.name)), `${locale} ${file.id} views`).toBe(distinct(english.views.map((v) => v.name)));
        content.attributes.forEach((a, index) => {
          const options = (a.settings.options ?? []) as { name: string }[];
          const before = (english.attributes[index]!.settings.options ?? []) as { name: string }[];
          expect(distinct(options.map((o) => o.name)), `${locale} ${file.id} ${a.id} options`).toBe(distinct(before.map((o) => o.name)));
        });
      }
    });
  }

  it('translates a content and keeps ids, kinds, colours, references and non-text values', () => {
    const file = BUILTIN_FILES.find((f) => f.id === 'bug-tracker')!;
    const english = builtinContent(file);
    const de = localiseTemplate(english, 'de');
    expect(de.folders[0]!.name).toBe('Bug-Tracker');
    expect(de.attributes.find((a) => a.id === 'a_severity')!.name).toBe('Schweregrad');
    const status = de.attributes.find((a) => a.id === 'a_status')!.settings.options as { id: string; name: string; color: string }[];
    expect(status.find((o) => o.id === 'done')).toMatchObject({ name: 'Behoben', color: '#00854D' });
    expect(de.automations![0]!.actions[0]!.text).toContain('{{item.name}}');
    // Everything but the strings is the same.
    expect(mapTemplateStrings(de, () => 'x')).toEqual(mapTemplateStrings(english, () => 'x'));
    expect(localiseTemplate(english, 'en')).toBe(english);
    // A string without a translation stays English (a user-made text never vanishes).
    const custom = { ...english, attributes: [{ ...english.attributes[0]!, name: 'Our own words', settings: {} }] };
    expect(localiseTemplate(custom, 'fr').attributes[0]!.name).toBe('Our own words');
  });
});
