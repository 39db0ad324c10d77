import { useEffect, useRef, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { pathFor } from '../../schema/routes';
import { WORKSPACE_LIMIT_EVENT } from '../navigation/workspace-limit';

/** Answers the workspaceLimitExceeded event: the plan allows no further workspace. */
export function WorkspaceLimitDialog() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const show = () => setOpen(true);
    window.addEventListener(WORKSPACE_LIMIT_EVENT, show);
    return () => window.removeEventListener(WORKSPACE_LIMIT_EVENT, show);
  }, []);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal?.();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="shell-dialog" aria-labelledby="workspace-limit-title" onClose={() => setOpen(false)} data-testid="workspace-limit">
      <h2 id="workspace-limit-title">
        <Trans>Workspace limit reached</Trans>
      </h2>
      <p>
        <Trans>Your plan allows no further workspace. Upgrade your plan to create another one.</Trans>
      </p>
      <div className="shell-dialog-actions">
        <button type="button" onClick={() => setOpen(false)}>
          <Trans>Close</Trans>
        </button>
        <Link to={pathFor('subscription.upgrade')} className="ui-button ui-button--primary ui-button--md" onClick={() => setOpen(false)}>
          <Trans>Upgrade</Trans>
        </Link>
      </div>
    </dialog>
  );
}
