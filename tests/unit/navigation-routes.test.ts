import { describe, expect, it } from 'vitest';
import { isAppPath, matchRoute, pathFor, routes, routesByName } from '../../schema/routes';

describe('the route table (shell.md §2)', () => {
  it.each([
    ['/redirect', 'redirect', {}],
    ['/password/reset', 'password.reset', {}],
    ['/password/reset/tok123/a%40b.test', 'password.set', { token: 'tok123', email: 'a@b.test' }],
    ['/login', 'login', {}],
    ['/register/invitation', 'register.invitation', {}],
    ['/activate-ltd/ABC', 'activate-ltd', { code: 'ABC' }],
    ['/', 'app', {}],
    ['/auth/reauthenticate', 'auth.reauthenticate', {}],
    ['/home', 'home', {}],
    ['/workspace/create', 'create-workspace', {}],
    ['/fwd/template-start/t1', 'forward.template', { templateId: 't1' }],
    ['/team/7', 'team.boards', { teamId: 7 }],
    ['/team/7/boards/create', 'create-board', { teamId: 7 }],
    ['/team/7/boards/b1/edit', 'edit-board', { teamId: 7, boardId: 'b1' }],
    ['/team/7/boards/b1/permissions', 'board.permissions', { teamId: 7, boardId: 'b1' }],
    ['/team/7/boards/b1/activity', 'board.activity', { teamId: 7, boardId: 'b1' }],
    ['/team/7/members', 'team.members', { teamId: 7 }],
    ['/team/7/import/trello/auth/b1/f1', 'trello-import', { teamId: 7, boardId: 'b1', folderId: 'f1' }],
    ['/team/7/import/trello/b1/tb/f1', 'trello-import-board', { teamId: 7, boardId: 'b1', trelloBoardId: 'tb', folderId: 'f1' }],
    ['/profile/settings', 'profile', {}],
    ['/profile/two-factor', 'profile.twoFactor', {}],
    ['/profile/two-factor/recovery-codes', 'profile.twoFactor.recoveryCodes', {}],
    ['/profile/developer/hooks/h1/logs', 'profile.developer.hook.logs', { hookId: 'h1' }],
    ['/profile/templates/shared', 'custom-templates.shared', {}],
    ['/profile/templates/t9/edit', 'custom-templates.templates.edit', { templateId: 't9' }],
    ['/profile/templates/t9', 'custom-templates.templates.landing', { templateId: 't9' }],
    ['/profile/templates/shared/t9', 'custom-templates.templates.landing', { templateId: 't9' }],
    ['/templates/search', 'templates.search', {}],
    ['/templates/tags/x', 'templates.tag', { tagId: 'x' }],
    ['/templates/t5', 'templates.landing', { templateId: 't5' }],
    ['/subscription/upgrade', 'subscription.upgrade', {}],
    ['/subscription/upgrade/12', 'subscription.upgrade', { subscriptionId: 12 }],
    ['/subscription/add-ons', 'subscription.buy-addon', {}],
    ['/b/r1', 'board', { rootId: 'r1' }],
    ['/b/r1/f1', 'folder', { rootId: 'r1', folderId: 'f1' }],
    ['/b/r1/f1/i1', 'folder', { rootId: 'r1', folderId: 'f1', itemId: 'i1' }],
    ['/form/abc', 'form', { formId: 'abc' }],
    ['/p/e12-v9', 'published-document', { workspaceId: 12, viewId: 'v9' }],
    ['/p/e12-v9/my-item', 'published-document', { workspaceId: 12, viewId: 'v9', itemSlug: 'my-item' }],
    ['/p/f12-v9', 'published-file', { workspaceId: 12, viewId: 'v9' }],
    ['/p/i12-v9/slug', 'shared-document-item', { workspaceId: 12, viewId: 'v9', itemSlug: 'slug' }],
    ['/trial-email/active', 'trial', {}],
    ['/verify-email', 'verify-email', {}],
    ['/s/auth/redirect', 'auth.redirect', {}],
  ])('%s is %s', (path, name, params) => {
    const match = matchRoute(path);
    expect(match?.route.name).toBe(name);
    expect(match?.params).toEqual(params);
    expect(isAppPath(path)).toBe(true);
  });

  it.each(['/nope', '/team/abc', '/team/7/unknown', '/p/x1-2', '/p/eabc', '/subscription/upgrade/abc', '/b', '/profile', '/home/extra'])(
    '%s is not an app path',
    (path) => {
      expect(isAppPath(path)).toBe(false);
    },
  );

  it('ignores the query and hash when matching', () => {
    expect(matchRoute('/home?notification=5#x')?.route.name).toBe('home');
  });

  it('has unique names and marks the spec flags', () => {
    expect(new Set(routes.map((r) => r.name)).size).toBe(routes.length);
    for (const name of ['create-workspace', 'auth.reauthenticate', 'create-board', 'attachment.download', 'templates.home', 'trello-import']) {
      expect(routesByName.get(name)?.noSidebar, name).toBe(true);
    }
    for (const name of ['board', 'folder', 'form', 'published-document', 'published-file', 'shared-document-item']) {
      expect(routesByName.get(name)?.public, name).toBe(true);
    }
    expect(routesByName.get('templates.search')?.keepQuery).toEqual(['teamId', 'boardId', 'folderId']);
  });

  it('builds paths from names, dropping empty optional params', () => {
    expect(pathFor('team.members', { teamId: 3 })).toBe('/team/3/members');
    expect(pathFor('subscription.upgrade', { subscriptionId: undefined })).toBe('/subscription/upgrade');
    expect(pathFor('subscription.upgrade', { subscriptionId: '' })).toBe('/subscription/upgrade');
    expect(pathFor('folder', { rootId: 'r', folderId: 'f', itemId: '' })).toBe('/b/r/f');
    expect(pathFor('published-document', { workspaceId: 4, viewId: 'v' })).toBe('/p/e4-v');
    expect(pathFor('custom-templates.templates.landing', { templateId: 't', shared: 1 })).toBe('/profile/templates/shared/t');
    expect(pathFor('custom-templates.templates.landing', { templateId: 't' })).toBe('/profile/templates/t');
    expect(() => pathFor('team.members', {})).toThrow(/teamId/);
    expect(() => pathFor('nope')).toThrow(/Unknown route/);
  });

  it('round-trips every route through pathFor and matchRoute', () => {
    const sample: Record<string, string | number> = { token: 't', email: 'e', code: 'c', templateId: 'tp', teamId: 1, boardId: 'b', folderId: 'f', trelloBoardId: 'tb', hookId: 'h', tagId: 'g', subscriptionId: 2, rootId: 'r', itemId: 'i', formId: 'fm', workspaceId: 3, viewId: 'v', itemSlug: 's' };
    for (const route of routes) {
      const path = pathFor(route.name, sample);
      expect(matchRoute(path)?.route.name, path).toBe(route.name);
    }
  });
});

describe('router paths built from the table', () => {
  it('converts patterns to the router syntax', async () => {
    const { routerPaths } = await import('../../src/navigation/router-paths');
    const paths = (name: string) => routerPaths(routesByName.get(name)!);
    expect(paths('team.members')).toEqual(['/team/$teamId/members']);
    expect(paths('subscription.upgrade')).toEqual(['/subscription/upgrade/{-$subscriptionId}']);
    expect(paths('folder')).toEqual(['/b/$rootId/$folderId/{-$itemId}']);
    expect(paths('published-document')).toEqual(['/p/e{$workspaceView}/{-$itemSlug}']);
    expect(paths('shared-document-item')).toEqual(['/p/i{$workspaceView}/$itemSlug']);
    expect(paths('custom-templates.templates.landing').sort()).toEqual(['/profile/templates/$templateId', '/profile/templates/shared/$templateId']);
    expect(paths('app')).toEqual(['/']);
  });

  it('gives every route at least one distinct router path', async () => {
    const { routerPaths } = await import('../../src/navigation/router-paths');
    const all = routes.flatMap((r) => routerPaths(r));
    expect(new Set(all).size).toBe(all.length);
  });
});
