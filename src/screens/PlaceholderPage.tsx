import { useLingui } from '@lingui/react/macro';
import { EmptyState } from '../ui/EmptyState';
import { Page } from './Page';

/** Every route not built yet renders its own heading and an empty state. */
export function PlaceholderPage() {
  const { t } = useLingui();
  return (
    <Page>
      <div data-testid="empty-state">
        <EmptyState title={t`Nothing here yet.`} text={t`This screen is on its way.`} />
      </div>
    </Page>
  );
}
