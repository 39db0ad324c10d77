/** The thin progress bar shows during changes between named routes, not for query-only changes. */
export function showsProgress(fromName: string | undefined, toName: string | undefined): boolean {
  return Boolean(fromName && toName && fromName !== toName);
}
