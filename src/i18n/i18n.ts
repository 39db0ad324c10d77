import { i18n, type Messages } from '@lingui/core';
import type { Locale } from '../../schema/constants';
import { directionFor } from './locale';

/**
 * Catalogs load on demand: each is its own chunk, compiled from locales/{locale}/messages.po by the
 * Lingui Vite plugin at build time (no compiled catalogs are committed).
 */
const loaders: Record<Locale, () => Promise<{ messages: Messages }>> = {
  en: () => import('../../locales/en/messages.po'),
  sr: () => import('../../locales/sr/messages.po'),
  es: () => import('../../locales/es/messages.po'),
  it: () => import('../../locales/it/messages.po'),
  de: () => import('../../locales/de/messages.po'),
  fr: () => import('../../locales/fr/messages.po'),
  pl: () => import('../../locales/pl/messages.po'),
  ar: () => import('../../locales/ar/messages.po'),
  tr: () => import('../../locales/tr/messages.po'),
  zh: () => import('../../locales/zh/messages.po'),
  ko: () => import('../../locales/ko/messages.po'),
};

const loaded = new Set<Locale>();

/** Loads the catalog (once) and activates it; sets lang and dir on <html>. */
export async function activateLocale(locale: Locale, root: HTMLElement | null = typeof document === 'undefined' ? null : document.documentElement): Promise<void> {
  if (!loaded.has(locale)) {
    const { messages } = await loaders[locale]();
    i18n.load(locale, messages);
    loaded.add(locale);
  }
  i18n.activate(locale);
  if (root) {
    root.lang = locale;
    root.dir = directionFor(locale);
  }
}

export { i18n };
