import { useLingui } from '@lingui/react/macro';
import { conflictInbox, useConflicts } from '../../connectivity/conflicts';

/**
 * The mark on an item's name cell or card while the conflict inbox holds a field of it (issue #30
 * part 2); a click opens the inbox.
 */
export function ConflictMarker({ itemId }: { itemId: string }) {
  const { t } = useLingui();
  const { items } = useConflicts();
  if (!items.has(itemId)) return null;
  return (
    <button
      type="button"
      tabIndex={-1}
      className="conflict-marker"
      data-testid="conflict-marker"
      title={t`Another change overlapped with yours: open Conflicts`}
      aria-label={t`Another change overlapped with yours: open Conflicts`}
      onClick={(e) => {
        e.stopPropagation();
        conflictInbox.openPanel();
      }}
    >
      ⚠
    </button>
  );
}
