/**
 * Page-view reporting (shell.md §2): after each navigation the title and path go to the analytics
 * driver named by /api/app-vars. The default driver is `none`. `backend` sends the event to
 * PUT /api/log (the spec's backend analytics). Guests are never reported.
 */
export interface PageView {
  title: string;
  path: string;
}

export interface AnalyticsDriver {
  readonly name: string;
  pageView(view: PageView): void;
}

export interface AnalyticsVars {
  analytics?: { driver?: string | null; writeKey?: string | null } | null;
}

export type LogTransport = (body: { name: string; properties: Record<string, unknown> }) => Promise<unknown>;

export const noAnalytics: AnalyticsDriver = { name: 'none', pageView() {} };

/** Picks the driver; unknown names fall back to none so a typo never breaks navigation. */
export function chooseAnalytics(vars: AnalyticsVars | null | undefined, deps: { isGuest: boolean; log: LogTransport }): AnalyticsDriver {
  if (deps.isGuest) return noAnalytics;
  const driver = vars?.analytics?.driver ?? 'none';
  if (driver === 'backend') {
    return {
      name: 'backend',
      pageView(view) {
        // Analytics must never surface an error to the user.
        deps.log({ name: 'page_view', properties: { title: view.title, path: view.path } }).catch(() => {});
      },
    };
  }
  return noAnalytics;
}

/** Reports each distinct path once per navigation (re-renders of the same location are not views). */
export function createPageViewReporter(getDriver: () => AnalyticsDriver) {
  let last: string | null = null;
  return (view: PageView) => {
    if (view.path === last) return false;
    last = view.path;
    getDriver().pageView(view);
    return true;
  };
}
