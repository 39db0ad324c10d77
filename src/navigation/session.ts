import { pathFor } from '../../schema/routes';

/**
 * Where login success goes: the intended destination (from the server, else the one remembered
 * when the user was sent to login), only when it is a path of this origin; else home.
 */
export function afterLoginPath(serverIntended: string | null | undefined, remembered?: string | null): string {
  for (const candidate of [serverIntended, remembered]) {
    if (isLocalPath(candidate)) return candidate!;
  }
  return pathFor('home');
}

/** A same-origin path ("/x"), never a protocol-relative or absolute URL (no open redirects). */
export function isLocalPath(value: string | null | undefined): boolean {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') && !/^\/(login|register)(\/|\?|$)/.test(value);
}

/**
 * Where logout goes (shell.md §2): /development when an owner access token was saved, else the
 * server's redirect, else /login. A failed logout goes to /login.
 */
export function afterLogoutPath(opts: { ok: boolean; serverRedirect?: string | null; ownerTokenSaved: boolean }): string {
  if (!opts.ok) return pathFor('login');
  if (opts.ownerTokenSaved) return '/development';
  if (opts.serverRedirect) return opts.serverRedirect;
  return pathFor('login');
}
