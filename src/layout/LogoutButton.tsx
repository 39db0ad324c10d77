import { useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { useRouter } from '@tanstack/react-router';
import { logout } from '../api/logout';

export function LogoutButton() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="link-button"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        const target = await logout();
        if (/^https?:\/\//.test(target)) window.location.assign(target);
        else await router.navigate({ href: target });
      }}
    >
      <Trans>Log out</Trans>
    </button>
  );
}
