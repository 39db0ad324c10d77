import { Trans, useLingui } from '@lingui/react/macro';
import { notSaved } from '../connectivity/not-saved';
import { BusyButton } from '../ui/BusyButton';
import { Button } from '../ui/Button';
import { confirm } from '../ui/confirm-store';
import { toast } from '../ui/toast-store';
import './not-saved.css';

/**
 * Retry, Copy and Discard of an edit the server refused (decision 0094): the one implementation the
 * "Not saved" list and the conflict inbox both show (issue #30 part 3). Retry saves the kept value
 * again over the current copy; Discard asks first, then drops it for good. Both go to the worker,
 * whose `not-saved` event makes every tab's lists follow.
 */
export function RefusedEditActions({ entry, copyText }: { entry: { collection: string; id: string }; copyText?: string }) {
  const { t } = useLingui();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(copyText ?? '');
      toast.show(t`Copied to the clipboard.`, { kind: 'success', id: 'not-saved-copy' });
    } catch {
      toast.show(t`The browser did not allow copying.`, { kind: 'error', id: 'not-saved-copy' });
    }
  };
  const discard = async () => {
    const yes = await confirm({
      title: t`Discard this change?`,
      message: t`It will be gone for good; the record keeps what the server has.`,
      confirmLabel: t`Discard`,
      danger: true,
    });
    if (yes) await notSaved.discard(entry);
  };
  return (
    <div className="not-saved-row__actions" data-testid="refused-actions">
      <BusyButton size="sm" variant="primary" onClick={() => notSaved.retry(entry)}>
        <Trans>Retry</Trans>
      </BusyButton>
      {copyText !== undefined && (
        <Button size="sm" onClick={() => void copy()}>
          <Trans>Copy</Trans>
        </Button>
      )}
      <Button size="sm" variant="danger" onClick={() => void discard()}>
        <Trans>Discard</Trans>
      </Button>
    </div>
  );
}
