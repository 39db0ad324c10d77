import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { pathFor } from '../../schema/routes';
import { WORKSPACE_LIMIT_EVENT } from '../navigation/workspace-limit';

// Listening from module load: the event can fire during the very first navigation (opening
// /workspace/create directly), before any component has mounted.
let raised = 0;
const listeners = new Set<() => void>();
if (typeof window !== 'undefined') {
  window.addEventListener(WORKSPACE_LIMIT_EVENT, () => {
    raised += 1;
    listeners.forEach((l) => l());
  });
}
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Answers the workspaceLimitExceeded event: the plan allows no further workspace. */
export function WorkspaceLimitDialog() {
  const count = useSyncExternalStore(subscribe, () => raised, () => 0);
  const [open, setOpen] = useState(count > 0);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (count > 0) setOpen(true);
  }, [count]);
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
