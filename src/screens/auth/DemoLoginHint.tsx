import { useEffect, useState } from 'react';
import { Trans } from '@lingui/react/macro';
import { appVars } from '../../app-vars';
import { AppVars } from '../../api/endpoints';

export interface DemoLogin {
  email: string;
  password: string;
}

/** `demoLogin` of the app vars when the server seeds the demo accounts; null everywhere else. */
export function demoLoginOf(vars: Record<string, unknown>): DemoLogin | null {
  const demo = vars.demoLogin as Partial<DemoLogin> | null | undefined;
  return demo && typeof demo.email === 'string' && typeof demo.password === 'string' ? { email: demo.email, password: demo.password } : null;
}

/**
 * The demo login, shown only where the server says the demo accounts exist (a local `npm start`),
 * so a production login page never advertises a known password. Asks the server afresh (a copy
 * remembered from another start could be stale) without storing the answer: the login page is where
 * a signed-out device must hold nothing the app wrote.
 */
export function DemoLoginHint({ onUse }: { onUse: (demo: DemoLogin) => void }) {
  const [demo, setDemo] = useState<DemoLogin | null>(() => demoLoginOf(appVars.get()));
  useEffect(() => {
    let live = true;
    AppVars.get().then(
      (vars) => live && setDemo(demoLoginOf(vars)),
      () => {
        /* offline: keep what the shell already knows */
      },
    );
    return () => {
      live = false;
    };
  }, []);
  if (!demo) return null;
  const { email, password } = demo;
  return (
    <p className="demo-login muted" data-testid="demo-login">
      <Trans>
        Demo login: <code>{email}</code> / <code>{password}</code>
      </Trans>{' '}
      <button type="button" className="link-button" onClick={() => onUse(demo)}>
        <Trans>Fill in</Trans>
      </button>
    </p>
  );
}
