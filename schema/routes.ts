/**
 * The app's route table as path patterns (shell.md §2), shared so the server can answer an
 * unmatched path with 404 while still serving the app that renders the not-found page.
 * The app shell owns this table; src/ builds its router from it.
 */
export interface RoutePattern {
  name: string;
  path: string;
}

export const routePatterns: RoutePattern[] = [];

/** True when the path belongs to a screen of the app (placeholder until the route table lands). */
export function isAppPath(_pathname: string): boolean {
  return true;
}
