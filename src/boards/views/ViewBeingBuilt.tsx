import { Trans } from '@lingui/react/macro';
import { EmptyState } from '../../ui/EmptyState';

/** Shown by a view kind whose screen is not built yet (a saved view of it must not crash the board). */
export default function ViewBeingBuilt() {
  return <EmptyState className="view-being-built" headingLevel={3} title={<Trans>This view is being built.</Trans>} text={<Trans>Its items are safe; open them in a Table view meanwhile.</Trans>} />;
}
