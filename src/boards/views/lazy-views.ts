import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyRetry } from '../../ui/lazy-retry';
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

export const LAZY_VIEWS: Record<Exclude<ViewKind, 'table' | 'column'>, LazyView> = {
  calendar: lazyRetry(() => import('../calendar/CalendarView')),
  gantt: lazyRetry(() => import('../gantt/GanttView')),
  list: lazyRetry(() => import('../list/ListView')),
  chart: lazyRetry(() => import('../chart/ChartView')),
  form: lazyRetry(() => import('../form/FormBuilderView')),
  // Docs: the tree and the collaborative editor (TipTap + Yjs), decision 0135.
  docs: lazyRetry(() => import('../docs/DocsView')),
};
