import type { Profile } from './api/endpoints';
import { applyTheme } from './ui/tokens';
import { activateLocale } from './i18n/i18n';
import { pickLocale } from './i18n/locale';
import { store, StorageKeys } from './storage/local-store';
import { THEME_MODE } from '../schema/constants';
import { session } from './api/session';

let stopTheme: () => void = () => {};

/** Theme mode (0 light, 1 dark, 2 system) on <html>, remembered for the next load. */
export function applyThemeMode(mode: number) {
  stopTheme();
  stopTheme = applyTheme(mode);
  store.set(StorageKeys.themeMode, mode);
}

/** The remembered theme mode (system until the user chooses). */
export const storedThemeMode = (): number => store.get(StorageKeys.themeMode, THEME_MODE.system);

/** The user's language and theme, applied to the whole app. */
export async function applyUserPreferences(user: Pick<Profile, 'locale' | 'theme'>) {
  applyThemeMode(user.theme ?? THEME_MODE.system);
  const locale = pickLocale(user.locale);
  store.set(StorageKeys.locale, locale);
  await activateLocale(locale);
}

/**
 * A signed-in user's saved theme and language follow the session: applied the moment a login or
 * registration brings the profile (issue #17 part 4: the dark theme waited for a reload), and
 * whenever the profile changes. Returns the unsubscribe.
 */
export function followUserPreferences(): () => void {
  let applied: string | null = null;
  return session.subscribe(() => {
    const { status, user } = session.get();
    if (status !== 'signedIn') {
      applied = null;
      return;
    }
    const key = `${user.id}:${user.theme ?? ''}:${user.locale ?? ''}`;
    if (key === applied) return;
    applied = key;
    void applyUserPreferences(user);
  });
}
