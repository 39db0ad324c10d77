import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyRetry, sharedLoad } from '../../ui/lazy-retry';
import type { ViewKind } from '../../../schema/views';
import type { ViewProps } from '../parts/view-props';

/**
 * The views that load on demand, one chunk each, so the board screen does not carry a calendar
 * or chart library until someone opens such a view. Table and Column are the board's first
 * screen and stay in its chunk (FolderPane imports them directly).
 *
 * Each module exports its view as `default`. A view opened offline before the service worker
 * has cached its chunk waits for it (lazyRetry) instead of failing for good.
 */
type LazyView = LazyExoticComponent<ComponentType<ViewProps>>;
type LazyKind = Exclude<ViewKind, 'table' | 'column'>;
type ViewModule = { default: ComponentType<ViewProps> };

const LOADERS: Record<LazyKind, () => Promise<ViewModule>> = {
  calendar: sharedLoad<ViewModule>(() => import('../calendar/CalendarView')),
  gantt: sharedLoad<ViewModule>(() => import('../gantt/GanttView')),
  list: sharedLoad<ViewModule>(() => import('../list/ListView')),
  chart: sharedLoad<ViewModule>(() => import('../chart/ChartView')),
  form: sharedLoad<ViewModule>(() => import('../form/FormBuilderView')),
  // Docs: the tree and the collaborative editor (TipTap + Yjs), decision 0135.
  docs: sharedLoad<ViewModule>(() => import('../docs/DocsView')),
};

export const LAZY_VIEWS: Record<LazyKind, LazyView> = {
  calendar: lazyRetry(LOADERS.calendar),
  gantt: lazyRetry(LOADERS.gantt),
  list: lazyRetry(LOADERS.list),
  chart: lazyRetry(LOADERS.chart),
  form: lazyRetry(LOADERS.form),
  docs: lazyRetry(LOADERS.docs),
};

/**
 * Fetches the chunks of a folder's other views while the browser is idle: the first click on a
 * Chart or Calendar tab does not wait for its library to download, and a board opened online
 * can still show those views after the connection goes (the service worker keeps what was
 * fetched). A failed fetch (offline) is left for the view to retry when it is opened.
 */
export function prefetchViews(kinds: Iterable<string>): () => void {
  const wanted = [...new Set(kinds)].filter((k): k is LazyKind => k in LOADERS);
  if (wanted.length === 0) return () => {};
  const run = () => {
    for (const kind of wanted) LOADERS[kind]().catch(() => {});
  };
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(run, { timeout: 3_000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(run, 1_000);
  return () => clearTimeout(timer);
}
