/**
 * Where /redirect may send someone: the `to` (or `intended`) query value when it is a path of this
 * app ("/b/…", not "//evil.example" or "https://…"); null otherwise. Pure, for tests.
 */
export function localTarget(query: URLSearchParams): string | null {
  const raw = query.get('to') ?? query.get('intended');
  if (!raw) return null;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  if (raw.startsWith('/redirect')) return null;
  return raw;
}

/**
 * The file an /attachment/download link points at: `link` when it is one of our file addresses,
 * else `get` as a stored file name under /api/files/. Null when neither is usable.
 */
export function attachmentUrl(query: URLSearchParams): string | null {
  const link = query.get('link');
  if (link) {
    try {
      const url = new URL(link, window.location.origin);
      if (url.origin === window.location.origin && url.pathname.startsWith('/api/files/')) return url.pathname + url.search;
    } catch {
      /* not a URL */
    }
  }
  const get = query.get('get');
  if (get && /^[\w./-]+$/.test(get) && !get.includes('..')) return `/api/files/${get.replace(/^\/+/, '')}`;
  return null;
}
