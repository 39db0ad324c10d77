import { createRootRoute, createRoute, createRouter, lazyRouteComponent, redirect, type AnyRoute } from '@tanstack/react-router';
import { routes, convertParams, pathFor, type RouteDef, type RouteParams } from '../schema/routes';
import { routerPaths } from './navigation/router-paths';
import { nextSearch, dropEmpty } from './navigation/query';
import { screens } from './screens/registry';
import { RootLayout } from './layout/RootLayout';
import { NotFoundPage } from './screens/NotFoundPage';
import { PlaceholderPage } from './screens/PlaceholderPage';
import { RouteErrorPage } from './screens/RouteErrorPage';
import { loadScreenWithin } from './screens/screen-load-error';
import { session } from './api/session';
import { checkCreateWorkspace, checkWhiteLabel } from './navigation/guards';

/**
 * The TanStack router, built from the one route table in schema/routes.ts. Every route is a flat
 * child of the root: the layout (sidebar or not) comes from the table's flags, not from nesting.
 */

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    route?: RouteDef;
  }
  interface Register {
    router: typeof router;
  }
}

const parseSearch = (searchStr: string): Record<string, string> => Object.fromEntries(new URLSearchParams(searchStr));
const stringifySearch = (search: Record<string, unknown>): string => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(dropEmpty(search))) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
};

const rootRoute = createRootRoute({ component: RootLayout, notFoundComponent: NotFoundPage });

/**
 * The router reloads the whole page when a screen's code fails to load, which offline ends on the
 * browser's error page. Renaming the error keeps the app on screen: RouteErrorPage says the feature
 * needs the connection and retries when it returns.
 */
function keepPageOnChunkError<T>(loader: () => Promise<T>): () => Promise<T> {
  // Also given up on after 120 s (shell.md §9), so a stalled fetch ends on the retry page.
  return () => loadScreenWithin(loader);
}

let currentRouteName: string | undefined;
export const setCurrentRouteName = (name: string | undefined) => {
  currentRouteName = name;
};

function buildRoute(def: RouteDef, path: string): AnyRoute {
  const loader = screens[def.name];
  return createRoute({
    getParentRoute: () => rootRoute,
    path,
    staticData: { route: def },
    params: {
      parse: (raw: Record<string, string>) => {
        // Returning false makes the router skip this route, so /team/abc ends at the not-found page.
        const converted = convertParams(def, raw);
        return (converted ?? false) as never;
      },
      stringify: (params: RouteParams) => {
        const out: Record<string, string> = {};
        for (const [key, value] of Object.entries(dropEmpty(params))) out[key] = String(value);
        if (params.workspaceId !== undefined && params.viewId !== undefined) out.workspaceView = `${params.workspaceId}-${params.viewId}`;
        return out as never;
      },
    },
    search: {
      middlewares: [({ search, next }: { search: Record<string, unknown>; next: (s: Record<string, unknown>) => Record<string, unknown> }) =>
        nextSearch({ fromName: currentRouteName, toName: def.name, from: search, to: next(search) })],
    },
    beforeLoad: async ({ location, params }: { location: { href: string; searchStr: string }; params: Record<string, unknown> }) => {
      if (def.redirectTo) throw redirect({ href: pathFor(def.redirectTo, params as RouteParams) + location.searchStr, replace: true });
      const { status } = session.get();
      if (def.shell && !def.public && status !== 'signedIn') {
        throw redirect({ href: `${pathFor('login')}?intended=${encodeURIComponent(location.href)}`, replace: true });
      }
      if ((def.name === 'login' || def.name === 'register') && status === 'signedIn') throw redirect({ href: pathFor('home'), replace: true });
      if (def.name === 'create-workspace') await checkCreateWorkspace();
      if (typeof (params as RouteParams).teamId === 'number') await checkWhiteLabel((params as RouteParams).teamId as number, location.href);
    },
    component: loader ? lazyRouteComponent(keepPageOnChunkError(loader)) : PlaceholderPage,
  } as never) as unknown as AnyRoute;
}

const children = routes.flatMap((def) => routerPaths(def).map((path) => buildRoute(def, path)));

export const router = createRouter({
  routeTree: rootRoute.addChildren(children),
  parseSearch,
  stringifySearch,
  defaultPreload: 'intent',
  defaultErrorComponent: RouteErrorPage,
  defaultPendingMs: 150,
  scrollRestoration: true,
});
