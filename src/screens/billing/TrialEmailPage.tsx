import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { pathFor } from '../../../schema/routes';
import { useSession } from '../../api/session';
import { Spinner } from '../../ui/Spinner';
import { Page } from '../Page';
import { BillingApi, type BillingSubscription } from './billing-api';
import { refusalText } from './billing-messages';
import './billing-extras.css';

const REDIRECT_SECONDS = 5;

/**
 * The `trial` route, /trial-email/active (shell.md): the link of the trial e-mail. It starts the
 * 14-day trial (of ?plan=, else Pro) on the signed-in user's subscription — or, when a trial already
 * runs, says how long it has left — and goes on to /profile/billing after 5 seconds (workspace.md §9
 * "redirect after 5 seconds"). A refusal reads "Error activating trial" with the reason.
 */
export default function TrialEmailPage() {
  const { t } = useLingui();
  const { user } = useSession();
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as { plan?: string };
  const [state, setState] = useState<{ kind: 'working' } | { kind: 'started' | 'running'; sub: BillingSubscription } | { kind: 'failed'; reason: string | null }>({ kind: 'working' });
  const [seconds, setSeconds] = useState(REDIRECT_SECONDS);
  const started = useRef(false);
  const billing = pathFor('profile.billing');

  useEffect(() => {
    if (!user || user.guest || started.current) return;
    started.current = true;
    void (async () => {
      try {
        const subs = await BillingApi.subscriptions();
        const running = subs.find((s) => s.state === 'trial');
        if (running) {
          setState({ kind: 'running', sub: running });
          return;
        }
        setState({ kind: 'started', sub: await BillingApi.startTrial(typeof search.plan === 'string' && search.plan ? search.plan : 'pro') });
      } catch (error) {
        setState({ kind: 'failed', reason: refusalText(error) });
      }
    })();
  }, [user, search.plan]);

  useEffect(() => {
    if (state.kind !== 'started' && state.kind !== 'running') return;
    if (seconds <= 0) {
      void navigate({ href: billing });
      return;
    }
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [state.kind, seconds, navigate, billing]);

  return (
    <Page narrow>
      <div className="trial-activate" data-testid="trial-activate">
        {state.kind === 'working' ? <Spinner /> : null}
        {state.kind === 'failed' ? (
          <div role="alert">
            <p>{t`Error activating trial`}</p>
            {state.reason ? <p>{state.reason}</p> : null}
          </div>
        ) : null}
        {state.kind === 'started' ? <p role="status">{t`Your ${state.sub.plan?.name ?? state.sub.deal} trial has started: ${state.sub.trial?.days_left ?? 14} days with every feature of the plan.`}</p> : null}
        {state.kind === 'running' ? <p role="status">{t`Your trial is active. Days left: ${state.sub.trial?.days_left ?? 0}.`}</p> : null}
        {state.kind === 'started' || state.kind === 'running' ? <p>{t`Taking you to your plan in ${seconds} seconds…`}</p> : null}
        <Link to={billing}>{t`See your plan`}</Link>
      </div>
    </Page>
  );
}
