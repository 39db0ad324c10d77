/**
 * Whether this document was itself loaded at `href` (its Navigation Timing address): then a
 * ServerPage must not reload (the service worker's offline copy of the app would come back, in a
 * loop). Pure, so a unit test can judge it.
 */
export function loadedHere(href: string, navigationUrl: string | undefined): boolean {
  const strip = (url: string) => url.split('#')[0];
  return !!navigationUrl && strip(navigationUrl) === strip(href);
}
