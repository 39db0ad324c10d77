/**
 * Design tokens as seen from TypeScript: the names of the CSS custom properties defined in
 * theme.css, the theme switch, and the customer colour overrides of
 * `app.customization.colors.{name}` (shell.md §9). Values live in theme.css only, so a theme is
 * one place to edit.
 */
import { THEME_MODE } from '../../schema/constants';

/** Colour tokens a workspace may override, keyed by the settings name. */
export const COLOR_TOKENS = {
  primary: '--color-primary',
  primaryContrast: '--color-primary-contrast',
  background: '--color-bg',
  surface: '--color-surface',
  surfaceRaised: '--color-surface-raised',
  sunken: '--color-surface-sunken',
  border: '--color-border',
  text: '--color-text',
  textMuted: '--color-text-muted',
  danger: '--color-danger',
  success: '--color-success',
  warning: '--color-warning',
  info: '--color-info',
  focus: '--color-focus',
  sidebar: '--color-sidebar',
  sidebarText: '--color-sidebar-text',
} as const;
export type ColorTokenName = keyof typeof COLOR_TOKENS;

export const SPACE = { 0: '--space-0', 1: '--space-1', 2: '--space-2', 3: '--space-3', 4: '--space-4', 5: '--space-5', 6: '--space-6', 7: '--space-7', 8: '--space-8' } as const;
export const RADIUS = { sm: '--radius-sm', md: '--radius-md', lg: '--radius-lg', full: '--radius-full' } as const;
export const FONT_SIZE = { xs: '--text-xs', sm: '--text-sm', md: '--text-md', lg: '--text-lg', xl: '--text-xl', xxl: '--text-2xl' } as const;
/** Avatar background palette size (`--avatar-0` … `--avatar-7`). */
export const AVATAR_PALETTE_SIZE = 8;

/** `var(--token)` for inline styles. */
export const cssVar = (name: string): string => `var(${name})`;

export type ThemeName = 'light' | 'dark';
export type ThemeMode = ThemeName | 'system';

/** The theme to show for a user setting (a THEME_MODE number or name) and the OS preference. */
export function resolveTheme(mode: ThemeMode | number | null | undefined, prefersDark: boolean): ThemeName {
  if (mode === 'dark' || mode === THEME_MODE.dark) return 'dark';
  if (mode === 'light' || mode === THEME_MODE.light) return 'light';
  return prefersDark ? 'dark' : 'light';
}

/** Sets `<html data-theme>`; with mode `system` it follows the OS until the returned function is called. */
export function applyTheme(mode: ThemeMode | number | null | undefined, root: HTMLElement = document.documentElement): () => void {
  const query = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
  const apply = () => root.setAttribute('data-theme', resolveTheme(mode, query?.matches ?? false));
  apply();
  const followsSystem = resolveTheme(mode, true) !== resolveTheme(mode, false);
  if (!query || !followsSystem) return () => {};
  query.addEventListener('change', apply);
  return () => query.removeEventListener('change', apply);
}

// Plain colour values only: hex, functional notations and named colours. Anything else (url(),
// var(), expressions, semicolons) is ignored so a setting can never smuggle in other CSS.
const COLOR_VALUE = /^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla|hwb|lab|lch|oklab|oklch)\([0-9a-z.,%\s/+\-]*\)|[a-z]{3,30})$/i;

export function isSafeColor(value: unknown): value is string {
  return typeof value === 'string' && COLOR_VALUE.test(value.trim()) && !/^(inherit|initial|unset|revert|var)$/i.test(value.trim());
}

const PREFIX = 'app.customization.colors.';

/** Reads colour overrides from flat (`{"app.customization.colors.primary": "#f00"}`) or nested settings. */
export function readCustomColors(settings: unknown): Partial<Record<ColorTokenName, string>> {
  const out: Partial<Record<ColorTokenName, string>> = {};
  if (!settings || typeof settings !== 'object') return out;
  const record = settings as Record<string, unknown>;
  const nested = (record.app as { customization?: { colors?: unknown } } | undefined)?.customization?.colors;
  const sources: Array<[string, unknown]> = [];
  if (nested && typeof nested === 'object') sources.push(...Object.entries(nested as Record<string, unknown>));
  for (const [key, value] of Object.entries(record)) {
    if (key.startsWith(PREFIX)) sources.push([key.slice(PREFIX.length), value]);
  }
  for (const [name, value] of sources) {
    if (name in COLOR_TOKENS && isSafeColor(value)) out[name as ColorTokenName] = value.trim();
  }
  return out;
}

/** The CSS custom properties the settings override, e.g. `{"--color-primary": "#f00"}`. */
export function customColorProperties(settings: unknown): Record<string, string> {
  const props: Record<string, string> = {};
  for (const [name, value] of Object.entries(readCustomColors(settings))) {
    props[COLOR_TOKENS[name as ColorTokenName]] = value as string;
  }
  return props;
}

const applied = new WeakMap<HTMLElement, string[]>();

/**
 * Applies `app.customization.colors.*` as inline custom properties on `<html>` (they win over both
 * themes). Calling it again replaces the previous overrides; `applyCustomColors(null)` clears them.
 */
export function applyCustomColors(settings: unknown, root: HTMLElement = document.documentElement): Record<string, string> {
  for (const name of applied.get(root) ?? []) root.style.removeProperty(name);
  const props = customColorProperties(settings);
  for (const [name, value] of Object.entries(props)) root.style.setProperty(name, value);
  applied.set(root, Object.keys(props));
  return props;
}
