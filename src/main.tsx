// zod is not part of the first load: screens that need it get it with eval switched off through the
// build's alias (schema/zod-jitless.ts, decision 0275).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { I18nProvider } from '@lingui/react';
import { i18n, activateLocale } from './i18n/i18n';
import { pickLocale } from './i18n/locale';
import { router, setCurrentRouteName } from './router';
import { screens } from './screens/registry';
import { matchRoute } from '../schema/routes';
import { installNavigation } from './navigation/install';
import { session } from './api/session';
import { appVars } from './app-vars';
import { applyThemeMode, applyUserPreferences, followUserPreferences, storedThemeMode } from './preferences';
import { store, StorageKeys } from './storage/local-store';
import { setToastTestMode, testModeFromSearch } from './ui/toast-store';
import { applyCustomColors } from './ui/tokens';
import { startWorkerSession } from './api/worker-session';
import { registerServiceWorker } from './sw/register';
import { startUpdateDetection } from './sw/updates';
import './ui/theme.css';
import './shell.css';

/**
 * Start-up: theme and language first (no flash of the wrong ones), then the session from the
 * refresh cookie, then the router. Nothing here waits on more than one round trip.
 */
async function start() {
  // Fetch the first screen's code while the session and the catalog load (no waterfall).
  const first = matchRoute(window.location.pathname)?.route.name;
  if (first && screens[first]) void screens[first]().catch(() => {});
  applyThemeMode(storedThemeMode());
  setToastTestMode(testModeFromSearch(window.location.search));
  const locale = pickLocale(store.get<string | null>(StorageKeys.locale, null), navigator.languages);
  // The sync worker follows the session from here on (signIn on every token, signOut on logout).
  startWorkerSession();
  await Promise.all([activateLocale(locale), session.restore()]);
  const { user } = session.get();
  if (user) await applyUserPreferences(user);
  // From now on a login (or a profile change) applies the user's theme and language at once.
  followUserPreferences();
  installNavigation(router, setCurrentRouteName);
  void appVars.load().then((vars) => applyCustomColors(vars.settings ?? null));
  // App shell offline and version updates (src/sw/, decision 0080).
  registerServiceWorker();
  startUpdateDetection();

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nProvider>
    </StrictMode>,
  );
}

void start();
