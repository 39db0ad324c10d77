import { useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { isChallenge } from '../navigation/challenge';

/** The call asked while the check is open: a plain GET the proxy checks like any other. */
const PROBE = '/api/app-vars';
const PROBE_EVERY_MS = 2_000;

/**
 * The verification overlay (shell.md §4, §8): "One more step before you proceed...". A proxy's
 * human check cannot run inside the app (its page may not be framed), so the user opens it in a
 * window of its own; meanwhile the overlay asks a plain call every 2 s and when the tab gets the
 * focus back, and closes with success as soon as an answer comes without the challenge header.
 */
export default function ChallengeOverlay({ onDone }: { onDone: (passed: boolean) => void }) {
  const { t } = useLingui();
  const [checking, setChecking] = useState(false);
  const doneRef = useRef(false);
  const finish = (passed: boolean) => {
    if (doneRef.current) return;
    doneRef.current = true;
    onDone(passed);
  };
  const probe = async () => {
    setChecking(true);
    try {
      const response = await fetch(PROBE, { cache: 'no-store', credentials: 'same-origin' });
      if (!isChallenge(response.headers)) finish(true);
    } catch {
      /* no answer yet: keep waiting */
    } finally {
      setChecking(false);
    }
  };
  useEffect(() => {
    const timer = window.setInterval(() => void probe(), PROBE_EVERY_MS);
    const onFocus = () => void probe();
    window.addEventListener('focus', onFocus);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', onFocus);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div className="shell-challenge" role="dialog" aria-modal="true" aria-labelledby="challenge-title" data-testid="challenge-overlay">
      <div className="shell-challenge-box">
        <h2 id="challenge-title">{t`One more step before you proceed...`}</h2>
        <p>
          <Trans>The connection to Cairn asks you to confirm you are a person. Open the check, complete it, and come back: your action is then sent again.</Trans>
        </p>
        <div className="shell-dialog-actions">
          <button type="button" className="ui-button ui-button--ghost ui-button--md" onClick={() => finish(false)}>
            <Trans>Cancel</Trans>
          </button>
          <button type="button" className="ui-button ui-button--secondary ui-button--md" onClick={() => void probe()} disabled={checking}>
            <Trans>I have completed it</Trans>
          </button>
          <a className="ui-button ui-button--primary ui-button--md" href={PROBE} target="_blank" rel="noopener">
            <Trans>Open the check</Trans>
          </a>
        </div>
      </div>
    </div>
  );
}
