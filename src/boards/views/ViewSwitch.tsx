import { Suspense } from 'react';
import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { pathFor } from '../../../schema/routes';
import { PRO_ONLY_VIEW_KINDS } from '../../../schema/views';
import { EmptyState } from '../../ui/EmptyState';
import { Spinner } from '../../ui/Spinner';
import { ColumnView } from '../column/ColumnView';
import { TableView } from '../table/TableView';
import type { ViewProps } from '../parts/view-props';
import { LAZY_VIEWS } from './lazy-views';

/**
 * The folder's selected view: Table and Column at once, the others from their own chunk
 * (lazy-views.ts), a Pro-only kind on a plan without it as a clear message.
 */
export function ViewSwitch(props: ViewProps & { planAllowsPro?: boolean }) {
  const { planAllowsPro = true, ...viewProps } = props;
  const kind = viewProps.view.kind;
  if (kind === 'table') return <TableView {...viewProps} />;
  if (kind === 'column') return <ColumnView {...viewProps} />;
  if (PRO_ONLY_VIEW_KINDS.includes(kind) && !planAllowsPro) {
    return (
      <EmptyState
        headingLevel={3}
        className="view-pro-gate"
        title={<Trans>This view is part of the Pro plan.</Trans>}
        text={<Trans>Ask the workspace owner to upgrade the plan to use it.</Trans>}
        action={
          <Link to={pathFor('profile.billing')} className="ui-button ui-button--primary ui-button--md">
            <Trans>See plans and upgrade</Trans>
          </Link>
        }
      />
    );
  }
  const View = LAZY_VIEWS[kind];
  return (
    <Suspense fallback={<div className="view-loading"><Spinner /></div>}>
      <View {...viewProps} />
    </Suspense>
  );
}
