import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setupI18n, type I18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { LOCALES, type Locale } from '../../schema/constants';
import type { Db } from '../sync/store';

/**
 * The server's own texts in the recipient's language (decision 0155): notification mails and Web
 * Push. Catalogs are `locales/{locale}/server.po` beside the app's, msgid = the English text with
 * ICU placeholders ({who}, plurals); `node scripts/i18n-fill.mjs extract` collects the
 * literal first argument of every `l10n` call under server/ into the English catalog and `fill` writes translations, like
 * the app's. Lingui core formats them (its ICU compiler at load: the server has no macro build).
 * A message missing from a catalog falls back to English, never to nothing.
 */

export type Translate = (message: string, values?: Record<string, unknown>) => string;

const localesDir = fileURLToPath(new URL('../../locales/', import.meta.url));

/** msgid → msgstr of one .po file (single-line entries, as our tools write them). */
export function readPo(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  const unescape = (s: string) => s.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
  for (const m of text.matchAll(/^msgid "(.*)"\nmsgstr "(.*)"$/gm)) if (m[1]) entries.set(unescape(m[1]), unescape(m[2]!));
  return entries;
}

let instance: I18n | null = null;

function load(): I18n {
  if (instance) return instance;
  const i18n = setupI18n();
  i18n.setMessagesCompiler(compileMessage);
  for (const locale of LOCALES) {
    const file = `${localesDir}${locale}/server.po`;
    const entries = fs.existsSync(file) ? readPo(fs.readFileSync(file, 'utf8')) : new Map<string, string>();
    i18n.load(locale, Object.fromEntries([...entries].filter(([, text]) => text !== '')));
  }
  instance = i18n;
  return i18n;
}

/** A user's stored locale setting ("de-DE"; null when none or no such user), for serverLocale and translator. */
export async function localeSettingOf(db: Db, userId: number): Promise<string | null> {
  return (await db.selectFrom('users').select('locale').where('id', '=', userId).executeTakeFirst())?.locale ?? null;
}

/** The catalog for a user's locale setting ("de-DE" → de, "sr-Latn" → sr, unknown → en). */
export function serverLocale(tag: string | null | undefined): Locale {
  const language = (tag ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
  return (LOCALES as readonly string[]).includes(language) ? (language as Locale) : 'en';
}

/**
 * A translator for one recipient. Call it `l10n` with a literal message as its first argument:
 * the extractor finds messages by that name.
 */
export function translator(userLocale: string | null | undefined): Translate {
  const i18n = load();
  const locale = serverLocale(userLocale);
  return (message, values) => {
    if (i18n.locale !== locale) i18n.activate(locale);
    // The id is the English text; a catalog without it answers the English text itself.
    return i18n._({ id: message, message, values });
  };
}
