/**
 * Route-change signal for overlays (popup menus, tooltips) that must close when the route changes.
 *
 * The router dispatches `window.dispatchEvent(new CustomEvent(NAVIGATE_EVENT))` after every
 * navigation (see docs/ui.md); browser back/forward arrive as `popstate`. Listening to both keeps
 * the UI library independent of the router.
 */
export const NAVIGATE_EVENT = 'cairn:navigate';

/** Fired by the query-flag adapter after it changes the URL itself (pushState fires no event). */
export const QUERY_FLAG_EVENT = 'cairn:query-flag';

export interface EventTargetLike {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

/** Calls `listener` on every route change; returns the unsubscribe function. */
export function onRouteChange(listener: () => void, target: EventTargetLike = window): () => void {
  target.addEventListener('popstate', listener);
  target.addEventListener(NAVIGATE_EVENT, listener);
  return () => {
    target.removeEventListener('popstate', listener);
    target.removeEventListener(NAVIGATE_EVENT, listener);
  };
}

/** For the router: announce a completed navigation. */
export function announceNavigation(target: { dispatchEvent(event: Event): boolean } = window): void {
  target.dispatchEvent(new Event(NAVIGATE_EVENT));
}
