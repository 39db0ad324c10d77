import { describe, expect, it, vi } from 'vitest';
import { dropEmpty, nextSearch } from '../../src/navigation/query';
import { createPreviewMode } from '../../src/navigation/preview';
import { chooseAnalytics, createPageViewReporter, noAnalytics } from '../../src/navigation/analytics';
import { showsProgress } from '../../src/navigation/progress';
import { whiteLabelTarget } from '../../src/navigation/whitelabel';
import { anySubscriptionHasCapacity, canCreateWorkspace, fireWorkspaceLimitExceeded, WORKSPACE_LIMIT_EVENT } from '../../src/navigation/workspace-limit';
import { afterLoginPath, afterLogoutPath } from '../../src/navigation/session';
import { markNotificationRead, takeNotificationParam } from '../../src/navigation/notification-param';
import { outcomeForError } from '../../src/navigation/api-errors';

describe('query rules', () => {
  it('drops empty and undefined values', () => {
    expect(dropEmpty({ a: '', b: undefined, c: null, d: 0, e: 'x', f: [], g: false })).toEqual({ d: 0, e: 'x', g: false });
  });

  it('carries pretend and hide_header to the next route, and not other keys', () => {
    expect(nextSearch({ from: { pretend: '1', hide_header: '1', q: 'x' }, to: { view: 'v' } })).toEqual({ pretend: '1', hide_header: '1', view: 'v' });
    expect(nextSearch({ from: {}, to: { a: '', b: 'y' } })).toEqual({ b: 'y' });
  });

  it('lets an explicit empty value remove a carried key', () => {
    expect(nextSearch({ from: { pretend: '1' }, to: { pretend: '' } })).toEqual({});
  });

  it('keeps teamId, boardId and folderId inside the template gallery only', () => {
    const from = { teamId: 1, boardId: 'b', folderId: 'f', other: 'o' };
    expect(nextSearch({ fromName: 'templates.home', toName: 'templates.search', from, to: { q: 'x' } })).toEqual({ teamId: 1, boardId: 'b', folderId: 'f', q: 'x' });
    expect(nextSearch({ fromName: 'templates.home', toName: 'home', from, to: {} })).toEqual({});
  });
});

describe('preview mode', () => {
  it('switches on once when pretend is seen, and stays on', () => {
    const mode = createPreviewMode();
    const listener = vi.fn();
    mode.subscribe(listener);
    expect(mode.observe({})).toBe(false);
    expect(mode.on).toBe(false);
    expect(mode.observe({ pretend: '1' })).toBe(true);
    expect(mode.observe({ pretend: '1' })).toBe(false);
    expect(mode.observe({})).toBe(false);
    expect(mode.on).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('analytics', () => {
  it('uses none by default and for guests', () => {
    const log = vi.fn(async () => ({}));
    expect(chooseAnalytics({}, { isGuest: false, log }).name).toBe('none');
    expect(chooseAnalytics({ analytics: { driver: 'backend' } }, { isGuest: true, log })).toBe(noAnalytics);
    expect(chooseAnalytics({ analytics: { driver: 'made-up' } }, { isGuest: false, log }).name).toBe('none');
  });

  it('reports each page view with title and path through the backend driver', async () => {
    const log = vi.fn(async () => {
      throw new Error('offline');
    });
    const driver = chooseAnalytics({ analytics: { driver: 'backend' } }, { isGuest: false, log });
    const report = createPageViewReporter(() => driver);
    expect(report({ title: 'Home', path: '/home' })).toBe(true);
    expect(report({ title: 'Home', path: '/home' })).toBe(false);
    expect(report({ title: 'Members', path: '/team/1/members' })).toBe(true);
    expect(log).toHaveBeenCalledTimes(2);
    expect(log).toHaveBeenLastCalledWith({ name: 'page_view', properties: { title: 'Members', path: '/team/1/members' } });
  });
});

describe('progress bar', () => {
  it('shows only between different named routes', () => {
    expect(showsProgress('home', 'team.members')).toBe(true);
    expect(showsProgress('home', 'home')).toBe(false);
    expect(showsProgress(undefined, 'home')).toBe(false);
  });
});

describe('white label', () => {
  it('opens the link plus the full path, unless already there', () => {
    const ws = { id: 1, whitelabel_settings: { link: 'https://work.acme.test/' } };
    expect(whiteLabelTarget(ws, '/team/1/members?x=1', 'http://localhost')).toBe('https://work.acme.test/team/1/members?x=1');
    expect(whiteLabelTarget(ws, '/team/1', 'https://work.acme.test')).toBeNull();
    expect(whiteLabelTarget({ id: 2 }, '/team/2', 'http://localhost')).toBeNull();
    // A domain alone (editable by admins, maybe unproven) sends nobody anywhere: only the verified link does.
    expect(whiteLabelTarget({ id: 3, domain: 'acme.test' }, '/team/3', 'http://localhost')).toBeNull();
  });
});

describe('workspace limit', () => {
  it('reads the subscription capacity', () => {
    expect(canCreateWorkspace(null)).toBe(false);
    expect(canCreateWorkspace({ can_create_workspace: false, limits: {} })).toBe(false);
    expect(canCreateWorkspace({ limits: { workspaces: 2 }, usage: { workspaces: 2 } })).toBe(false);
    expect(canCreateWorkspace({ limits: { workspaces: 2 }, usage: { workspaces: 1 } })).toBe(true);
    expect(canCreateWorkspace({ limits: {} })).toBe(true);
  });

  it('looks for any active subscription with room', () => {
    expect(anySubscriptionHasCapacity([])).toBe(false);
    expect(anySubscriptionHasCapacity([{ active: false, limits: { workspaces: 5 }, usage: { workspaces: 0 } }])).toBe(false);
    expect(anySubscriptionHasCapacity([{ active: true, limits: { workspaces: 1 }, usage: { workspaces: 1 } }, { active: true, limits: { workspaces: 3 }, usage: { workspaces: 1 } }])).toBe(true);
  });

  it('fires the workspaceLimitExceeded event', () => {
    const target = new EventTarget();
    const seen = vi.fn();
    target.addEventListener(WORKSPACE_LIMIT_EVENT, seen);
    fireWorkspaceLimitExceeded(target);
    expect(seen).toHaveBeenCalledTimes(1);
  });
});

describe('login and logout destinations', () => {
  it('goes to the intended destination after login, local paths only', () => {
    expect(afterLoginPath('/team/4/members')).toBe('/team/4/members');
    expect(afterLoginPath(null, '/profile/settings')).toBe('/profile/settings');
    expect(afterLoginPath('https://evil.test/x')).toBe('/home');
    expect(afterLoginPath('//evil.test')).toBe('/home');
    expect(afterLoginPath('/login')).toBe('/home');
    expect(afterLoginPath(undefined)).toBe('/home');
  });

  it('goes to the server redirect, else /login, or /development with an owner token', () => {
    expect(afterLogoutPath({ ok: true, serverRedirect: '/bye', ownerTokenSaved: false })).toBe('/bye');
    expect(afterLogoutPath({ ok: true, serverRedirect: null, ownerTokenSaved: false })).toBe('/login');
    expect(afterLogoutPath({ ok: true, serverRedirect: '/bye', ownerTokenSaved: true })).toBe('/development');
    expect(afterLogoutPath({ ok: false, serverRedirect: '/bye', ownerTokenSaved: true })).toBe('/login');
  });
});

describe('notification query parameter', () => {
  it('is taken out of the query', () => {
    expect(takeNotificationParam({ notification: '42', view: 'v' })).toEqual({ id: '42', rest: { view: 'v' } });
    expect(takeNotificationParam({ view: 'v' })).toBeNull();
    expect(takeNotificationParam({ notification: '' })).toBeNull();
  });

  it('marks read and swallows errors', async () => {
    const put = vi.fn(async () => {
      throw new Error('500');
    });
    await expect(markNotificationRead('42', put)).resolves.toBeUndefined();
    expect(put).toHaveBeenCalledWith({ notification_ids: ['42'] });
  });
});

describe('API error outcomes', () => {
  it('sends a reauth 401 to auth.reauthenticate remembering the route', () => {
    expect(outcomeForError(401, { message: 'x', type: 'reauth' }, '/team/1/settings?a=1')).toEqual({
      kind: 'reauth',
      to: '/auth/reauthenticate?redirect=%2Fteam%2F1%2Fsettings%3Fa%3D1',
    });
  });

  it('sends an unverified email to verify-email without a toast', () => {
    expect(outcomeForError(403, { message: 'Your email address is not verified.' }, '/home')).toEqual({ kind: 'verify-email', to: '/verify-email' });
  });

  it('toasts the rest in the spec order', () => {
    expect(outcomeForError(500, { message: 'Server says no' }, '/')).toEqual({ kind: 'toast', text: 'Server says no' });
    expect(outcomeForError(403, {}, '/')).toEqual({ kind: 'toast', text: 'This action is unauthorized.' });
    expect(outcomeForError(404, null, '/')).toEqual({ kind: 'toast', text: 'Not Found' });
    expect(outcomeForError(409, {}, '/').kind).toBe('toast');
    expect(outcomeForError(422, { data: ['a', 'b'] }, '/')).toEqual({ kind: 'toast', text: 'Validation Error: a, b' });
    expect(outcomeForError(500, {}, '/')).toEqual({ kind: 'toast', text: 'Something Went Wrong' });
  });
});
