import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Download, Ellipsis } from 'lucide-react';
import { conflictInbox } from '../connectivity/conflicts';
import { saveUnsyncedFile, unsyncedCount } from '../connectivity/unsynced-download';
import { PopupMenu } from '../ui/PopupMenu';
import { toast } from '../ui/toast-store';

/**
 * The conflict inbox's menu (issue #30 part 7): "Download unsynced changes" saves the worker's
 * queue, drafts, conflicts and refused edits as one JSON file, for a tester or support to replay
 * (`npm run replay`, docs/testing.md). The worker assembles it; it never holds the session's token.
 */
export function InboxMenu() {
  const { t } = useLingui();
  const download = async () => {
    try {
      const file = await conflictInbox.exportFile();
      saveUnsyncedFile(file);
      const count = unsyncedCount(file);
      toast.show(plural(count, { one: 'Downloaded # unsynced change.', other: 'Downloaded # unsynced changes.' }));
    } catch {
      toast.show(t`The unsynced changes could not be read. Try again.`, { kind: 'error' });
    }
  };
  return (
    <div className="conflict-inbox__menu">
      <PopupMenu
        className="conflict-inbox__popup"
        items={[{ id: 'download-unsynced', label: t`Download unsynced changes`, icon: <Download size={15} aria-hidden="true" />, onSelect: () => void download() }]}
        renderTrigger={(props) => (
          <button type="button" className="ui-button ui-button--ghost ui-button--sm" data-testid="conflict-inbox-menu" title={t`Inbox actions`} aria-label={t`Inbox actions`} {...props}>
            <Ellipsis size={15} aria-hidden="true" />
          </button>
        )}
      />
    </div>
  );
}
