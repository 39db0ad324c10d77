import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { EXTERNAL_IMPORT_MAX_ITEMS, ImportMessages } from '../../schema/trello-gitlab-import';
import { ApiError } from '../http/errors';

/**
 * Gitlab's REST API for the Gitlab import (decision 0220): every issue of a project,
 * GET {url}/api/v4/projects/{id or url-encoded path}/issues?scope=all&state=all&per_page=100, page
 * after page as the `X-Next-Page` header says (or the `Link: rel="next"` of keyset pagination),
 * with the token in `PRIVATE-TOKEN`. The token is used for this one import and never stored.
 * The address is the user's: the server follows no redirects, stays on that origin for every page,
 * and never calls link-local addresses (cloud metadata services live there). A Gitlab on the
 * server's own network stays reachable on purpose (self-hosted installs have one).
 */

/** True for 169.254.0.0/16 and fe80::/10 (and their IPv4-mapped forms): never an import source. */
export function isLinkLocal(address: string): boolean {
  const v4 = address.replace(/^::ffff:/i, '');
  if (isIP(v4) === 4) return v4.startsWith('169.254.');
  return /^fe[89ab][0-9a-f]:/i.test(address) || /^fd00:ec2::254$/i.test(address);
}

async function checkHost(url: URL): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) throw new ApiError(502, ImportMessages.gitlabLoading, 'bad_gateway');
  if (addresses.some(isLinkLocal)) throw new ApiError(422, ImportMessages.gitlabSource, 'validation');
}

const PER_PAGE = 100;

export async function gitlabIssues(opts: { url: string; project: string; token: string }): Promise<unknown[]> {
  const base = opts.url.replace(/\/+$/, '').replace(/\/api\/v4$/, '');
  if (!/^https?:\/\//i.test(base)) throw new ApiError(422, ImportMessages.gitlabSource, 'validation');
  const project = /^\d+$/.test(opts.project) ? opts.project : encodeURIComponent(opts.project.replace(/^\/+|\/+$/g, ''));
  let next: string | null = `${base}/api/v4/projects/${project}/issues?${new URLSearchParams({ scope: 'all', state: 'all', per_page: String(PER_PAGE), order_by: 'created_at', sort: 'asc', page: '1' })}`;
  const origin = new URL(next).origin;
  await checkHost(new URL(next));
  const issues: unknown[] = [];
  for (let pages = 0; next && pages < EXTERNAL_IMPORT_MAX_ITEMS / PER_PAGE + 1; pages++) {
    let res: Response;
    try {
      res = await fetch(next, { headers: { 'PRIVATE-TOKEN': opts.token, accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(60_000) });
    } catch {
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
