import { defineConfig } from '@lingui/conf';

export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'sr', 'es', 'it', 'de', 'fr', 'pl', 'ar', 'tr', 'zh', 'ko'],
  fallbackLocales: { default: 'en' },
  catalogs: [{ path: '<rootDir>/locales/{locale}/messages', include: ['src'] }],
  format: 'po',
});
