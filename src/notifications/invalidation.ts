/**
 * The "Syncing" moment invalidates notifications (shell.md §4, S4.5): the engine bridge calls
 * `invalidateNotifications()` when the engine reports syncing; the feed asks the unread count again
 * and an open panel reloads its list. No imports, so the engine bridge and the feed both use it.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

export function invalidateNotifications(): void {
  for (const listener of [...listeners]) listener();
}

export function onNotificationsInvalidated(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
