/**
 * The app's route table (shell.md §2) as plain data. It is the one table: the server asks
 * `isAppPath` to decide between 200 and 404 when it serves index.html, and src/router.tsx builds
 * the TanStack router from the same entries.
 *
 * Path pattern syntax (one segment at a time):
 *   `literal`        a fixed segment
 *   `:name`          a required parameter
 *   `:name?`         an optional parameter (only as the last segment)
 *   `prefix:name`    a parameter that follows fixed text inside its segment (`e:workspaceView`)
 *   `literal?`       an optional fixed segment (`shared?` in the template landing page)
 */

/** How a raw path parameter is converted. `workspaceView` splits "12-abc" into workspaceId 12 and viewId "abc". */
export type ParamKind = 'number' | 'workspaceView';

export interface RouteDef {
  /** The spec's route name (shell.md §2); children use dotted names. */
  name: string;
  path: string;
  /** Parameters converted from text; the others stay strings. */
  params?: Record<string, ParamKind>;
  /** Query keys this route reads. */
  query?: string[];
  /** Query keys kept when navigating from one route of the same group to another (templates). */
  keepQuery?: string[];
  /** Screens shown without the sidebar. */
  noSidebar?: boolean;
  /** Inside the app shell: needs a signed-in user and shows the sidebar unless noSidebar. */
  shell?: boolean;
  /** Viewable by anonymous visitors (public boards, forms, published documents). */
  public?: boolean;
  /** Opening this route goes straight to another one (by name), keeping params and query. */
  redirectTo?: string;
}

const TEMPLATE_QUERY = ['teamId', 'boardId', 'folderId'];

export const routes: RouteDef[] = [
  // Top level
  { name: 'redirect', path: '/redirect' },
  { name: 'password.reset', path: '/password/reset' },
  { name: 'password.set', path: '/password/reset/:token/:email' },
  { name: 'onboarding', path: '/onboarding' },
  { name: 'checkout', path: '/checkout' },
  { name: 'login', path: '/login', query: ['intended'] },
  { name: 'auth', path: '/auth' },
  { name: 'register', path: '/register', query: ['ref'] },
  { name: 'register.invitation', path: '/register/invitation', query: ['token', 'email'] },
  { name: 'activate-ltd', path: '/activate-ltd/:code' },
  { name: 'app', path: '/', shell: true, redirectTo: 'home' },

  // Inside the app shell
  { name: 'auth.reauthenticate', path: '/auth/reauthenticate', shell: true, noSidebar: true, query: ['redirect'] },
  { name: 'home', path: '/home', shell: true },
  { name: 'create-workspace', path: '/workspace/create', shell: true, noSidebar: true },
  { name: 'forward.template', path: '/fwd/template-start/:templateId', shell: true },
  { name: 'forward.whitelabel', path: '/fwd/whitelabel', shell: true },

  // Team area
  { name: 'team.boards', path: '/team/:teamId', params: { teamId: 'number' }, shell: true },
  { name: 'create-board', path: '/team/:teamId/boards/create', params: { teamId: 'number' }, shell: true, noSidebar: true, query: ['start', 'template', 'name'] },
  { name: 'board.permissions', path: '/team/:teamId/boards/:boardId/permissions', params: { teamId: 'number' }, shell: true },
  { name: 'board.activity', path: '/team/:teamId/boards/:boardId/activity', params: { teamId: 'number' }, shell: true },
  { name: 'edit-board', path: '/team/:teamId/boards/:boardId/edit', params: { teamId: 'number' }, shell: true },
  { name: 'team.members', path: '/team/:teamId/members', params: { teamId: 'number' }, shell: true },
  { name: 'team.settings', path: '/team/:teamId/settings', params: { teamId: 'number' }, shell: true },
  { name: 'team.permissions', path: '/team/:teamId/permissions', params: { teamId: 'number' }, shell: true },
  { name: 'team.whitelabel', path: '/team/:teamId/whitelabel', params: { teamId: 'number' }, shell: true },
  { name: 'team.sso', path: '/team/:teamId/sso', params: { teamId: 'number' }, shell: true },
  { name: 'trello-import', path: '/team/:teamId/import/trello/auth/:boardId/:folderId', params: { teamId: 'number' }, shell: true, noSidebar: true },
  { name: 'trello-import-board', path: '/team/:teamId/import/trello/:boardId/:trelloBoardId/:folderId', params: { teamId: 'number' }, shell: true, noSidebar: true },

  // Profile area
  { name: 'profile', path: '/profile/settings', shell: true },
  { name: 'profile.workspaces', path: '/profile/workspaces', shell: true },
  { name: 'profile.notifications', path: '/profile/notifications', shell: true },
  { name: 'profile.time', path: '/profile/time', shell: true },
  { name: 'profile.referral', path: '/profile/referral', shell: true },
  { name: 'profile.applications', path: '/profile/applications', shell: true },
  { name: 'profile.security', path: '/profile/security', shell: true },
  { name: 'profile.billing', path: '/profile/billing', shell: true },
  { name: 'profile.twoFactor', path: '/profile/two-factor', shell: true, redirectTo: 'profile.twoFactor.status' },
  { name: 'profile.twoFactor.status', path: '/profile/two-factor/status', shell: true, noSidebar: true },
  { name: 'profile.twoFactor.recoveryCodes', path: '/profile/two-factor/recovery-codes', shell: true, noSidebar: true },
  { name: 'profile.developer', path: '/profile/developer', shell: true },
  { name: 'profile.developer.apps', path: '/profile/developer/apps', shell: true },
  { name: 'profile.developer.tokens', path: '/profile/developer/tokens', shell: true },
  { name: 'profile.developer.hooks', path: '/profile/developer/hooks', shell: true },
  { name: 'profile.developer.hook', path: '/profile/developer/hooks/:hookId', shell: true },
  { name: 'profile.developer.hook.logs', path: '/profile/developer/hooks/:hookId/logs', shell: true },
  // An OAuth app's authorisation request: the consent screen (docs/api/oauth.md).
  { name: 'oauth.authorize', path: '/oauth/authorize', shell: true, noSidebar: true, query: ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'] },

  // Custom templates
  { name: 'custom-templates', path: '/profile/templates', shell: true },
  { name: 'custom-templates.shared', path: '/profile/templates/shared', shell: true },
  { name: 'custom-templates.templates.edit', path: '/profile/templates/:templateId/edit', shell: true },
  { name: 'custom-templates.templates.landing', path: '/profile/templates/shared?/:templateId', shell: true },

  // Template gallery
  { name: 'templates.home', path: '/templates', shell: true, noSidebar: true, keepQuery: TEMPLATE_QUERY, query: TEMPLATE_QUERY },
  { name: 'templates.tag', path: '/templates/tags/:tagId', shell: true, noSidebar: true, keepQuery: TEMPLATE_QUERY, query: TEMPLATE_QUERY },
  { name: 'templates.search', path: '/templates/search', shell: true, noSidebar: true, keepQuery: TEMPLATE_QUERY, query: [...TEMPLATE_QUERY, 'q'] },
  { name: 'templates.landing', path: '/templates/:templateId', shell: true, noSidebar: true, keepQuery: TEMPLATE_QUERY, query: TEMPLATE_QUERY },

  // Other routes
  { name: 'extract-trello-token', path: '/imports/trello/return-token' },
  { name: 'subscription.buy-addon', path: '/subscription/add-ons/:subscriptionId?', params: { subscriptionId: 'number' }, shell: true },
  { name: 'subscription.upgrade', path: '/subscription/upgrade/:subscriptionId?', params: { subscriptionId: 'number' }, shell: true },
  { name: 'subscription.redirect', path: '/subscription/redirect', shell: true },
  { name: 'board', path: '/b/:rootId', shell: true, public: true },
  { name: 'folder', path: '/b/:rootId/:folderId/:itemId?', shell: true, public: true, query: ['t', 'comment', 'view'] },
  { name: 'attachment.download', path: '/attachment/download', shell: true, noSidebar: true, query: ['get', 'teamId', 'link'] },
  { name: 'form', path: '/form/:formId', public: true },
  { name: 'published-document', path: '/p/e:workspaceView/:itemSlug?', params: { workspaceView: 'workspaceView' }, public: true },
  { name: 'published-file', path: '/p/f:workspaceView', params: { workspaceView: 'workspaceView' }, public: true },
  { name: 'shared-document-item', path: '/p/i:workspaceView/:itemSlug', params: { workspaceView: 'workspaceView' }, public: true },
  { name: 'trial', path: '/trial-email/active', shell: true },
  { name: 'verify-email', path: '/verify-email', query: ['email'] },
  { name: 'auth.redirect', path: '/s/auth/redirect' },
];

export const routesByName: ReadonlyMap<string, RouteDef> = new Map(routes.map((r) => [r.name, r]));

/** Query keys that ride along from one route to the next (shell.md §2). */
export const CARRIED_QUERY_KEYS = ['pretend', 'hide_header'] as const;

// ---- matching ------------------------------------------------------------------------------

type Segment =
  | { kind: 'literal'; text: string; optional: boolean }
  | { kind: 'param'; name: string; prefix: string; optional: boolean };

export function parsePattern(path: string): Segment[] {
  return path
    .split('/')
    .filter(Boolean)
    .map((part): Segment => {
      const optional = part.endsWith('?');
      const body = optional ? part.slice(0, -1) : part;
      const colon = body.indexOf(':');
      if (colon < 0) return { kind: 'literal', text: body, optional };
      return { kind: 'param', name: body.slice(colon + 1), prefix: body.slice(0, colon), optional };
    });
}

/** Every concrete shape of a pattern, with each optional segment present or absent. */
export function expandPattern(path: string): Segment[][] {
  let shapes: Segment[][] = [[]];
  for (const segment of parsePattern(path)) {
    const required = { ...segment, optional: false } as Segment;
    shapes = shapes.flatMap((shape) => (segment.optional ? [shape, [...shape, required]] : [[...shape, required]]));
  }
  return shapes;
}

export type RouteParams = Record<string, string | number | undefined>;

export interface RouteMatch {
  route: RouteDef;
  /** Converted parameters (numbers for teamId etc.; workspaceView becomes workspaceId and viewId). */
  params: RouteParams;
}

/** Converts raw string parameters by the route's param kinds; null when a value does not convert. */
export function convertParams(route: RouteDef, raw: Record<string, string | undefined>): RouteParams | null {
  const out: RouteParams = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined || value === '') continue;
    const kind = route.params?.[key];
    if (kind === 'number') {
      if (!/^\d+$/.test(value)) return null;
      out[key] = Number(value);
    } else if (kind === 'workspaceView') {
      const m = /^(\d+)-(.+)$/.exec(value);
      if (!m) return null;
      out.workspaceId = Number(m[1]);
      out.viewId = m[2]!;
    } else {
      out[key] = value;
    }
  }
  return out;
}

function matchShape(shape: Segment[], parts: string[]): Record<string, string> | null {
  if (shape.length !== parts.length) return null;
  const raw: Record<string, string> = {};
  for (let i = 0; i < shape.length; i++) {
    const segment = shape[i]!;
    const part = parts[i]!;
    if (segment.kind === 'literal') {
      if (segment.text !== part) return null;
    } else {
      if (!part.startsWith(segment.prefix) || part.length === segment.prefix.length) return null;
      raw[segment.name] = safeDecode(part.slice(segment.prefix.length));
    }
  }
  return raw;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Fixed segments beat parameters, so /templates/search is not read as a template id. */
function specificity(shape: Segment[]): number {
  return shape.reduce((sum, s) => sum * 2 + (s.kind === 'literal' ? 1 : 0), 0);
}

const compiled = routes
  .flatMap((route) => expandPattern(route.path).map((shape) => ({ route, shape, score: specificity(shape) })))
  .sort((a, b) => b.shape.length - a.shape.length || b.score - a.score);

/** The route a pathname belongs to, with converted params; null for unmatched paths. */
export function matchRoute(pathname: string): RouteMatch | null {
  const clean = pathname.split(/[?#]/)[0]!;
  const parts = clean.split('/').filter(Boolean);
  for (const { route, shape } of compiled) {
    const raw = matchShape(shape, parts);
    if (!raw) continue;
    const params = convertParams(route, raw);
    if (params) return { route, params };
  }
  return null;
}

/** True when the path belongs to a screen of the app; the server answers 404 otherwise. */
export function isAppPath(pathname: string): boolean {
  return matchRoute(pathname) !== null;
}

/**
 * The path of a named route. Empty or undefined params are dropped (an optional trailing one then
 * disappears); a missing required one is an error in the caller.
 */
export function pathFor(name: string, params: RouteParams = {}): string {
  const route = routesByName.get(name);
  if (!route) throw new Error(`Unknown route ${name}`);
  const out: string[] = [];
  for (const segment of parsePattern(route.path)) {
    if (segment.kind === 'literal') {
      if (!segment.optional) out.push(segment.text);
      else if (params[segment.text]) out.push(segment.text);
      continue;
    }
    let value: string | number | undefined;
    if (route.params?.[segment.name] === 'workspaceView') {
      value = params.workspaceId !== undefined && params.viewId !== undefined ? `${params.workspaceId}-${params.viewId}` : undefined;
    } else {
      value = params[segment.name];
    }
    if (value === undefined || value === '') {
      if (segment.optional) continue;
      throw new Error(`Route ${name} needs the parameter ${segment.name}`);
    }
    out.push(segment.prefix + encodeURIComponent(String(value)));
  }
  return '/' + out.join('/');
}
