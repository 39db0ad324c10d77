import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { attributeSettings, checkValue, isAttributeKind } from '../../schema/attributes';
import { settingsByKind, isViewKind } from '../../schema/views';
import { TEMPLATE_TAGS, templateContent } from '../../schema/templates';
import { BUILTIN_FILES, builtinContent } from '../../server/templates/builtin';
import { resolveRelativeDates } from '../../server/templates/content';

/**
 * Every built-in template (server/templates/builtin/*.json) is a valid template: its content
 * passes the template schema, its attributes and views pass the record and settings schemas of
 * their kinds, every reference in a view names an attribute of the template that fits, and every
 * example value is one the save path accepts for its attribute. The app names each one.
 */

const REF_KEYS = ['group_by', 'date_attribute_id', 'range_attribute_id', 'start_attribute_id', 'end_attribute_id', 'sum_attribute_id'] as const;
const texts = fs.readFileSync('src/templates/texts.ts', 'utf8');

describe('built-in templates', () => {
  it('are at least 12, with distinct ids and known tags', () => {
    expect(BUILTIN_FILES.length).toBeGreaterThanOrEqual(12);
    expect(new Set(BUILTIN_FILES.map((f) => f.id)).size).toBe(BUILTIN_FILES.length);
    for (const file of BUILTIN_FILES) {
      expect(file.tags.length, file.id).toBeGreaterThan(0);
      for (const tag of file.tags) expect(TEMPLATE_TAGS as readonly string[], `${file.id}: ${tag}`).toContain(tag);
    }
  });

  it.each(BUILTIN_FILES.map((f) => [f.id, f] as const))('%s is valid against the schemas', (id, file) => {
    const content = builtinContent(file);
    expect(templateContent.safeParse(content).success, id).toBe(true);
    expect(content.attributes.length).toBeGreaterThanOrEqual(3);
    expect(content.views.length).toBeGreaterThanOrEqual(2);
    expect(content.items.length).toBeGreaterThanOrEqual(4);

    const attributes = new Map(content.attributes.map((a) => [a.id, a]));
    expect(attributes.size, 'distinct attribute ids').toBe(content.attributes.length);
    expect(new Set(content.attributes.map((a) => `${a.kind}:${a.name}`)).size, 'distinct attribute names').toBe(content.attributes.length);
    for (const attribute of content.attributes) {
      expect(isAttributeKind(attribute.kind), `${id}.${attribute.id} kind`).toBe(true);
      if (!isAttributeKind(attribute.kind)) continue;
      const parsed = attributeSettings[attribute.kind].safeParse(attribute.settings);
      expect(parsed.success, `${id}.${attribute.id} settings`).toBe(true);
    }

    for (const view of content.views) {
      expect(isViewKind(view.kind), `${id}: view ${view.name}`).toBe(true);
      if (!isViewKind(view.kind)) continue;
      expect(settingsByKind[view.kind].safeParse(view.settings).success, `${id}: view ${view.name} settings`).toBe(true);
      const settings = view.settings as Record<string, unknown>;
      const refs = [...REF_KEYS.map((key) => settings[key]), ...((settings.attribute_ids as string[] | undefined) ?? []), ...((settings.sort as { attribute_id: string }[] | undefined) ?? []).map((s) => s.attribute_id)].filter((ref) => ref !== undefined && ref !== null);
      for (const ref of refs) expect(attributes.has(String(ref)), `${id}: view ${view.name} names ${String(ref)}`).toBe(true);
      if (settings.group_by) expect(['status', 'label'], `${id}: ${view.name} groups by a status or label`).toContain(attributes.get(String(settings.group_by))?.kind);
      if (settings.date_attribute_id) expect(['date', 'date-range']).toContain(attributes.get(String(settings.date_attribute_id))?.kind);
      if (settings.range_attribute_id) expect(attributes.get(String(settings.range_attribute_id))?.kind).toBe('date-range');
      if (settings.sum_attribute_id) expect(attributes.get(String(settings.sum_attribute_id))?.kind).toBe('number');
    }

    const today = new Date('2026-11-25T12:00:00Z');
    for (const item of content.items) {
      expect(item.name.trim(), `${id}: an item has a name`).not.toBe('');
      for (const [key, raw] of Object.entries(item.values)) {
        const attribute = attributes.get(key);
        expect(attribute, `${id}: ${item.name} names ${key}`).toBeDefined();
        const check = checkValue(attribute!, resolveRelativeDates(raw, today));
        expect(check, `${id}: ${item.name}.${key} = ${JSON.stringify(raw)}`).toMatchObject({ ok: true });
      }
    }

    // The app shows its name and description in the user's language.
    expect(texts.includes(`'${id}':`) || texts.includes(`  ${id}:`), `${id} in src/templates/texts.ts`).toBe(true);
  });

  it('writes relative dates as dates and ranges from the day the board is made', () => {
    const today = new Date('2026-12-30T23:00:00Z');
    expect(resolveRelativeDates({ $days: 3 }, today)).toBe('2027-01-02');
    expect(resolveRelativeDates({ $days: [-1, 1] }, today)).toEqual({ start: '2026-12-29', end: '2026-12-31' });
    expect(resolveRelativeDates('2026-01-01', today)).toBe('2026-01-01');
    expect(resolveRelativeDates({ $days: 'soon' }, today)).toEqual({ $days: 'soon' });
  });
});
