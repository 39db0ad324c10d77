/**
 * The install prompt of the web app (a PWA: public/manifest.webmanifest). Chromium fires
 * `beforeinstallprompt` when the app may be installed; the event is kept so the "Install app"
 * button can show the browser's own dialog later, at the user's request. Listening starts with the
 * first import (the event can come before React renders).
 */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let deferred: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const tell = () => listeners.forEach((listener) => listener());

if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    deferred = event as InstallPromptEvent;
    tell();
  });
  window.addEventListener('appinstalled', () => {
    deferred = null;
    tell();
  });
}

export const installPrompt = {
  available: () => deferred !== null,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  /** Shows the browser's install dialog; true when the user accepted. */
  async show(): Promise<boolean> {
    const event = deferred;
    if (!event) return false;
    deferred = null;
    tell();
    await event.prompt();
    return (await event.userChoice).outcome === 'accepted';
  },
};
