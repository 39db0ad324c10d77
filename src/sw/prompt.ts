import { msg } from '@lingui/core/macro';
import { i18n } from '@lingui/core';
import { toast } from '../ui/toast-store';
import type { UpdateSignal } from './update-rules';

/** The reload prompt (shell.md §4): stays until the user reloads or dismisses it. */
export function showUpdatePrompt(signal: UpdateSignal, reload: () => void) {
  const message = signal.force ? i18n._(msg`A new version of Cairn is available. The page will reload shortly.`) : i18n._(msg`A new version of Cairn is available.`);
  toast.show(message, { kind: 'info', duration: null, id: 'update-required', action: { label: i18n._(msg`Reload`), run: reload } });
}
