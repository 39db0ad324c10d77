import { useSyncExternalStore } from 'react';
import { Download } from 'lucide-react';
import { Trans } from '@lingui/react/macro';
import { installPrompt } from '../navigation/install-prompt';

/** "Install app" in the sidebar, shown only while the browser offers to install Cairn (a PWA). */
export function InstallAppButton() {
  const available = useSyncExternalStore(installPrompt.subscribe, installPrompt.available, () => false);
  if (!available) return null;
  return (
    <li>
      <button type="button" className="link-button" onClick={() => void installPrompt.show()} data-testid="install-app">
        <Download size={16} aria-hidden="true" />
        <Trans>Install app</Trans>
      </button>
    </li>
  );
}
