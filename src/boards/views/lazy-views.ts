import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ViewKind } from '../../../schema/views';
import type { ViewProps } from '../parts/view-props';

/**
 * The views that load on demand, one chunk each, so the board screen does not carry a calendar
 * or chart library until someone opens such a view. Table and Column are the board's first
 * screen and stay in its chunk (FolderPane imports them directly).
 *
 * Each module exports its view as `default`. `list` and `chart` are built in issue #12 by the
 * List/Chart work: replace their loader with the real module (e.g. `import('../list/ListView')`);
 * until then they show the "being built" empty state.
 */
type LazyView = LazyExoticComponent<ComponentType<ViewProps>>;

export const LAZY_VIEWS: Record<Exclude<ViewKind, 'table' | 'column'>, LazyView> = {
  calendar: lazy(() => import('../calendar/CalendarView')),
  gantt: lazy(() => import('../gantt/GanttView')),
  list: lazy(() => import('../list/ListView')),
  chart: lazy(() => import('../chart/ChartView')),
  form: lazy(() => import('../form/FormBuilderView')),
  // Docs: the tree and the collaborative editor (TipTap + Yjs), decision 0135.
  docs: lazy(() => import('../docs/DocsView')),
};
