import { createConnectivity } from './connectivity';

/** The app's connectivity store, wired to the browser. */
export const connectivity = createConnectivity({
  initialOnline: typeof navigator === 'undefined' ? true : navigator.onLine,
  probe: async () => {
    try {
      const response = await fetch('/api/app-vars', { cache: 'no-store' });
      return response.ok;
    } catch {
      return false;
    }
  },
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
});

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => connectivity.browserOnline());
  window.addEventListener('offline', () => connectivity.browserOffline());
}
