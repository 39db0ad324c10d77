import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { plural } from '@lingui/core/macro';
import { useRouter } from '@tanstack/react-router';
import { logout, type LogoutOptions } from '../api/logout';
import { unsavedEditCount } from '../api/worker-session';
import { confirm } from '../ui/confirm-store';

function useLogout() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const run = async (options: LogoutOptions = {}) => {
    setBusy(true);
    const target = await logout(options);
    if (/^https?:\/\//.test(target)) window.location.assign(target);
    else await router.navigate({ href: target });
  };
  return { busy, run };
}

/** Logs out; the user's unsynced work stays on this device for their next sign-in. */
export function LogoutButton() {
  const { busy, run } = useLogout();
  return (
    <button type="button" className="link-button" disabled={busy} onClick={() => void run()}>
      <Trans>Log out</Trans>
    </button>
  );
}

/**
 * Logs out and removes this device's copy (decision 0094): on a shared or lost device nothing of
 * the user stays behind. Asks first, and says how many changes not yet on the server would go.
 */
export function LogoutRemovingCopyButton() {
  const { t } = useLingui();
  const { busy, run } = useLogout();
  const onClick = async () => {
    const unsaved = await unsavedEditCount().catch(() => 0);
    const yes = await confirm({
      title: t`Log out and remove this device's copy?`,
      message: [
        t`Everything Cairn keeps on this device for you is deleted: boards, items and settings.`,
        unsaved > 0 ? plural(unsaved, { one: '# change not yet saved to the server will be lost.', other: '# changes not yet saved to the server will be lost.' }) : '',
      ]
        .filter(Boolean)
        .join(' '),
      confirmLabel: t`Log out and remove`,
      danger: true,
    });
    if (yes) await run({ removeDeviceCopy: true });
  };
  return (
    <button type="button" className="link-button" disabled={busy} onClick={() => void onClick()} data-testid="logout-remove-copy">
      <Trans>Log out and remove this device's copy</Trans>
    </button>
  );
}
