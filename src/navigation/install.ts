import type { AnyRouter } from '@tanstack/react-router';
import { i18n } from '@lingui/core';
import { CARRIED_QUERY_KEYS, matchRoute } from '../../schema/routes';
import { announceNavigation } from '../ui/navigation-events';
import { chooseAnalytics, createPageViewReporter } from './analytics';
import { showsProgress } from './progress';
import { markNotificationRead, takeNotificationParam } from './notification-param';
import { previewMode } from './preview-instance';
import { rememberCurrentHref } from './guards';
import { progress } from '../layout/progress';
import { routeTitles } from '../screens/titles';
import { appVars } from '../app-vars';
import { brandName } from '../whitelabel/tenant';
import { session } from '../api/session';
import { Log } from '../api/endpoints';
import { markReadByParam } from '../notifications/feed';
import { setErrorNavigator } from '../api/handle-error';
import { hasEmptyValue } from './query';

const nameOf = (pathname: string) => matchRoute(pathname)?.route.name;

/** The page title of a path, translated. */
export function titleFor(pathname: string): string {
  const descriptor = routeTitles[nameOf(pathname) ?? 'not-found'];
  return descriptor ? i18n._(descriptor) : brandName();
}

/**
 * Wires the navigation rules of shell.md §2 to the router: progress bar on named route changes,
 * page title and page view after each navigation, preview mode, the notification parameter.
 */
export function installNavigation(router: AnyRouter, setCurrentRouteName: (name: string | undefined) => void) {
  const report = createPageViewReporter(() =>
    chooseAnalytics(appVars.get() as never, { isGuest: session.get().status !== 'signedIn' || Boolean(session.get().user?.guest), log: Log.event }),
  );
  setErrorNavigator((href) => void router.navigate({ href }));

  router.subscribe('onBeforeNavigate', ({ fromLocation, toLocation }) => {
    if (showsProgress(fromLocation ? nameOf(fromLocation.pathname) : undefined, nameOf(toLocation.pathname))) progress.set(true);
  });

  router.subscribe('onResolved', ({ toLocation }) => {
    progress.set(false);
    const name = nameOf(toLocation.pathname);
    setCurrentRouteName(name);
    rememberCurrentHref(toLocation.href);
    const title = titleFor(toLocation.pathname);
    document.title = `${title} · ${brandName()}`;
    const search = toLocation.search as Record<string, unknown>;
    // Empty query values are dropped on load too (a pasted `?view=&q=`), not only on navigation: the
    // router already read the query without them, so only the address bar is corrected.
    if (hasEmptyValue(window.location.search)) {
      const params = new URLSearchParams(window.location.search);
      for (const [key, value] of [...params]) if (value === '' && !(CARRIED_QUERY_KEYS as readonly string[]).includes(key)) params.delete(key);
      const query = params.toString().replace(/=(?=&|$)/g, '');
      window.history.replaceState(window.history.state, '', `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`);
    }
    previewMode.observe(search);
    const taken = takeNotificationParam(search);
    if (taken) {
      if (session.get().status === 'signedIn') void markNotificationRead(taken.id, markReadByParam);
      void router.navigate({ to: toLocation.pathname, search: taken.rest as never, replace: true });
      return;
    }
    report({ title, path: toLocation.href });
    announceNavigation();
  });
}
