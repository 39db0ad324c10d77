import type { TemplateContent } from '../../schema/templates';
import type { Locale } from '../../schema/constants';
import sr from './builtin-i18n/sr.json';
import es from './builtin-i18n/es.json';
import it from './builtin-i18n/it.json';
import de from './builtin-i18n/de.json';
import fr from './builtin-i18n/fr.json';
import pl from './builtin-i18n/pl.json';
import ar from './builtin-i18n/ar.json';
import tr from './builtin-i18n/tr.json';
import zh from './builtin-i18n/zh.json';
import ko from './builtin-i18n/ko.json';

/**
 * Built-in templates in the user's language (issue #16, decision 0165). The files under
 * server/templates/builtin/ are English; server/templates/builtin-i18n/{locale}.json map each of
 * their user-visible strings (English → translation). `mapTemplateStrings` is the one place that
 * knows which strings of a content a person reads: the catalogue test collects with it, and
 * `localiseTemplate` translates with it, so neither can miss a string the other sees.
 */

export const BUILTIN_TRANSLATIONS: Readonly<Record<Exclude<Locale, 'en'>, Readonly<Record<string, string>>>> = { sr, es, it, de, fr, pl, ar, tr, zh, ko };

/** Attribute kinds whose item values are words (other kinds hold ids, numbers, dates, emails). */
const TEXT_KINDS = new Set(['text', 'long-text']);

type Rec = Record<string, unknown>;
const isRec = (value: unknown): value is Rec => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A copy of the content with every user-visible string passed through `fn`: folder, attribute,
 * option, view, item and automation names, item values of text attributes, link texts, and the
 * texts automations write (comments, messages, text values they set). Ids, kinds, colours,
 * dates, numbers, emails and URLs are left as they are.
 */
export function mapTemplateStrings(content: TemplateContent, fn: (text: string) => string): TemplateContent {
  const kindOf = new Map(content.attributes.map((a) => [a.id, a.kind]));
  const value = (attributeId: unknown, v: unknown): unknown => {
    const kind = typeof attributeId === 'string' ? kindOf.get(attributeId) : undefined;
    if (kind && TEXT_KINDS.has(kind) && typeof v === 'string' && v !== '') return fn(v);
    if (kind === 'link' && isRec(v) && typeof v.text === 'string' && v.text !== '') return { ...v, text: fn(v.text) };
    return v;
  };
  return {
    ...content,
    folders: content.folders.map((f) => ({ ...f, name: fn(f.name) })),
    attributes: content.attributes.map((a) => {
      const options = a.settings.options;
      if (!Array.isArray(options)) return { ...a, name: fn(a.name) };
      const mapped = options.map((o) => (isRec(o) && typeof o.name === 'string' ? { ...o, name: fn(o.name) } : o));
      return { ...a, name: fn(a.name), settings: { ...a.settings, options: mapped } as typeof a.settings };
    }),
    views: content.views.map((v) => ({ ...v, name: fn(v.name) })),
    items: content.items.map((item) => ({
      ...item,
      name: item.name === '' ? item.name : fn(item.name),
      values: Object.fromEntries(Object.entries(item.values).map(([id, v]) => [id, value(id, v)])) as typeof item.values,
    })),
    ...(content.automations
      ? {
          automations: content.automations.map((a) => ({
            ...a,
            name: a.name === '' ? a.name : fn(a.name),
            actions: a.actions.map((action) => {
              const out: Rec = { ...action };
              for (const field of ['text', 'message', 'subject'] as const) if (typeof out[field] === 'string' && out[field] !== '') out[field] = fn(out[field] as string);
              if (action.type === 'set_value' && 'value' in action) out.value = value(action.attribute_id, action.value);
              return out as (typeof a.actions)[number];
            }),
          })),
        }
      : {}),
  };
}

/** Every user-visible string of a content, each once, in order of appearance. */
export function templateStrings(content: TemplateContent): string[] {
  const seen = new Set<string>();
  mapTemplateStrings(content, (text) => {
    seen.add(text);
    return text;
  });
  return [...seen];
}

/**
 * A built-in template's content in one language (a missing translation stays English). Only for
 * built-ins: a custom template is the user's own words and is never passed here.
 */
export function localiseTemplate(content: TemplateContent, locale: Locale): TemplateContent {
  if (locale === 'en') return content;
  const table = BUILTIN_TRANSLATIONS[locale];
  return mapTemplateStrings(content, (text) => table[text] || text);
}
