import { EXTERNAL_IMPORT_MAX_ITEMS, ImportMessages } from '../../schema/trello-gitlab-import';
import { ApiError } from '../http/errors';
import { outboundFetch, parseTargetUrl, TargetRefused, type AddressRule } from '../outbound';

/**
 * Gitlab's REST API for the Gitlab import (decision 0220): every issue of a project,
 * GET {url}/api/v4/projects/{id or url-encoded path}/issues?scope=all&state=all&per_page=100, page
 * after page as the `X-Next-Page` header says (or the `Link: rel="next"` of keyset pagination),
 * with the token in `PRIVATE-TOKEN`. The token is used for this one import and never stored.
 * The address is the user's: only its scheme, host and port are kept (a path, query or `#` cannot
 * steer the request), every request goes through the outbound client under the Gitlab import's
 * rule (no loopback, private, link-local or other inside address; a Gitlab on the server's own
 * network is opened by the operator with GITLAB_IMPORT_ALLOWED_HOSTS), no redirect is followed,
 * and every page stays on that origin (N4).
 */

/** The Gitlab instance's origin (scheme, host, port) from the user's URL; 422 naming `url` otherwise. */
export function gitlabBase(raw: string): string {
  try {
    return parseTargetUrl(raw).origin;
  } catch {
    throw new ApiError(422, `url: ${ImportMessages.gitlabSource}`, 'validation', [`url: ${ImportMessages.gitlabSource}`]);
  }
}

const PER_PAGE = 100;

export async function gitlabIssues(opts: { url: string; project: string; token: string; rule: AddressRule }): Promise<unknown[]> {
  const base = gitlabBase(opts.url);
  const project = /^\d+$/.test(opts.project) ? opts.project : encodeURIComponent(opts.project.replace(/^\/+|\/+$/g, ''));
  let next: string | null = `${base}/api/v4/projects/${project}/issues?${new URLSearchParams({ scope: 'all', state: 'all', per_page: String(PER_PAGE), order_by: 'created_at', sort: 'asc', page: '1' })}`;
  const origin = new URL(next).origin;
  const issues: unknown[] = [];
  for (let pages = 0; next && pages < EXTERNAL_IMPORT_MAX_ITEMS / PER_PAGE + 1; pages++) {
    let res: Response;
    try {
      res = await outboundFetch(opts.rule, next, { headers: { 'PRIVATE-TOKEN': opts.token, accept: 'application/json' }, timeoutMs: 60_000, maxBytes: 32 * 1024 * 1024 });
    } catch (error) {
      if (error instanceof TargetRefused) throw new ApiError(422, `url: ${error.message}`, 'validation', [`url: ${error.message}`]);
      throw new ApiError(502, ImportMessages.gitlabLoading, 'bad_gateway');
    }
    if (res.status === 401 || res.status === 403) throw new ApiError(422, ImportMessages.gitlabToken, 'validation');
    if (res.status === 404) throw new ApiError(422, ImportMessages.gitlabProject, 'validation');
    // A redirect (http → https, a moved instance) is not followed: the user gives the address that answers.
    if (!res.ok) throw new ApiError(502, ImportMessages.gitlabLoading, 'bad_gateway');
    let page: unknown;
    try {
      page = await res.json();
    } catch {
      throw new ApiError(502, ImportMessages.gitlabLoading, 'bad_gateway');
    }
    if (!Array.isArray(page)) throw new ApiError(502, ImportMessages.gitlabLoading, 'bad_gateway');
    issues.push(...page);
    if (issues.length > EXTERNAL_IMPORT_MAX_ITEMS) throw new ApiError(422, ImportMessages.tooMany(EXTERNAL_IMPORT_MAX_ITEMS), 'validation');
    next = nextPage(res.headers, next);
    // The token goes to the address the user gave, never to another host a Link header names.
    if (next && new URL(next).origin !== origin) throw new ApiError(502, ImportMessages.gitlabLoading, 'bad_gateway');
  }
  return issues;
}

/** The next page's address: `X-Next-Page` (offset pagination), else a `Link` header's rel="next". */
export function nextPage(headers: Headers, current: string): string | null {
  const number = headers.get('x-next-page')?.trim();
  if (number) {
    const url = new URL(current);
    url.searchParams.set('page', number);
    return url.toString();
  }
  const link = headers.get('link');
  const match = link ? /<([^>]+)>\s*;\s*rel="?next"?/.exec(link) : null;
  return match ? match[1]! : null;
}
