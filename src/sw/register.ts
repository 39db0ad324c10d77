/**
 * Registers /sw.js (production builds only: the dev server and Vitest have none) and turns a new
 * service worker into an update signal: a worker that finished installing while another controls
 * the page is a new build waiting for the user (shell.md §4). The browser checks /sw.js on each
 * navigation; we also ask when the tab comes back into view or online, at most once per update
 * window (shell.md §9: 60 s), and every hour with the version check.
 */
import { SW_UPDATE_WINDOW_MS, VERSION_CHECK_INTERVAL_MS } from '../../schema/constants';
import { throttle } from './update-rules';
import { handoverAsked, reportUpdate } from './updates';

export function registerServiceWorker() {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const container = navigator.serviceWorker;
  container.addEventListener('controllerchange', () => {
    if (handoverAsked()) window.location.reload();
  });
  void container
    .register('/sw.js', { scope: '/' })
    .then((registration) => {
      const noticeWaiting = () => {
        if (registration.waiting && container.controller) reportUpdate({ source: 'service-worker' });
      };
      const follow = (installing: ServiceWorker | null) =>
        installing?.addEventListener('statechange', () => {
          if (installing.state === 'installed') noticeWaiting();
        });
      noticeWaiting();
      // The browser may have started installing a new build (its check on this navigation) already.
      follow(registration.installing);
      registration.addEventListener('updatefound', () => follow(registration.installing));
      const check = throttle(SW_UPDATE_WINDOW_MS, Date.now, () => void registration.update().catch(() => undefined));
      document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && check());
      window.addEventListener('online', check);
      setInterval(check, VERSION_CHECK_INTERVAL_MS);
    })
    .catch(() => undefined); // no service worker: the app still runs, only not offline-started
}
