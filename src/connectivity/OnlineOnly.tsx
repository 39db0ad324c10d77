import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { useOnline } from './use-connectivity';
import { connectivity } from './instance';
import { toastOfflineAction } from './messages';

/**
 * Greys out a feature while offline with the spec's note (shell.md §2). The content stays visible
 * (so nothing typed disappears) but cannot be used.
 */
export function OnlineOnly({ children, className }: { children: ReactNode; className?: string }) {
  const online = useOnline();
  if (online) return <>{children}</>;
  return (
    <div className={`offline-disabled ${className ?? ''}`} data-testid="offline-disabled">
      <p className="offline-note" role="note">
        <Trans>This feature is not available when offline</Trans>
      </p>
      <div inert aria-disabled="true" className="offline-disabled-content">
        {children}
      </div>
    </div>
  );
}

/** Runs an action only online; offline it shows "This action is not available when you are offline." for 10 s. */
export function runOnline<T>(action: () => T): T | undefined {
  if (!connectivity.get().online) {
    toastOfflineAction();
    return undefined;
  }
  return action();
}
