import type { ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useOnline } from './use-connectivity';
import { connectivity } from './instance';
import { toastOfflineAction } from './messages';

/**
 * Greys out a feature while offline with the spec's note (shell.md §2). The content stays visible
 * (so nothing typed disappears) but cannot be used.
 */
export function OnlineOnly({ children, className, compact }: { children: ReactNode; className?: string; compact?: boolean }) {
  const online = useOnline();
  const { t } = useLingui();
  if (online) return <>{children}</>;
  if (compact) {
    // Small controls (one per table row): greyed, with the note as their tooltip.
    return (
      <div className={`offline-disabled ${className ?? ''}`} data-testid="offline-disabled" title={t`This feature is not available when offline`}>
        <div inert aria-disabled="true" className="offline-disabled-content">
          {children}
        </div>
      </div>
    );
  }
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
