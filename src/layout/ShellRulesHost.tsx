import { Suspense, useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { appVars } from '../app-vars';
import { useSession, session } from '../api/session';
import { Accounts } from '../api/endpoints';
import { showApiError } from '../api/handle-error';
import { applyUserPreferences } from '../preferences';
import { store, StorageKeys } from '../storage/local-store';
import { lazyRetry } from '../ui/lazy-retry';
import { toast } from '../ui/toast-store';
import { setChallengeSolver } from '../navigation/challenge';
import { installErrorReporter } from '../navigation/error-reporter';
import { deviceTimeZone, needsTimeZoneConfirmation, zoneLabel } from '../navigation/timezone-confirm';
import '../navigation/install-prompt';
import './shell-rules.css';

// Uncaught errors are reported from the first render on (shell.md §8).
installErrorReporter();

const ChallengeOverlay = lazyRetry(() => import('./ChallengeOverlay'));
const ApiHelper = lazyRetry(() => import('./ApiHelper'));

/** Loads the operator's additional script once, when app-vars says there is one (decision 0230). */
function useAdditionalScripts() {
  useEffect(() => {
    let live = true;
    void appVars.loaded().then((vars) => {
      if (!live || vars.additionalScripts !== true || document.getElementById('additional-scripts')) return;
      const script = document.createElement('script');
      script.id = 'additional-scripts';
      script.src = '/api/additional-scripts.js';
      script.async = true;
      document.head.appendChild(script);
    });
    return () => {
      live = false;
    };
  }, []);
}

/** Whether the API helper is open, remembered across reloads (the sidebar's tip has its own helperVisible). */
const API_HELPER_KEY = 'apiHelperVisible';

/** Ctrl+Shift+A opens and closes the API helper. */
function useApiHelperKey(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => store.get<boolean>(API_HELPER_KEY, false));
  const set = (next: boolean) => {
    store.set(API_HELPER_KEY, next);
    setOpen(next);
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.shiftKey && !event.altKey && event.code === 'KeyA') {
        event.preventDefault();
        setOpen((was) => {
          store.set(API_HELPER_KEY, !was);
          return !was;
        });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return [open, set];
}

/** Asks once per device zone when the profile names another time zone than this device's. */
function useTimeZoneConfirmation() {
  const { user } = useSession();
  const { t, i18n } = useLingui();
  useEffect(() => {
    const device = deviceTimeZone();
    const profile = user?.timezone ?? null;
    if (!user || !needsTimeZoneConfirmation(profile, device, store.get<string | null>(StorageKeys.confirmedTimezone, null))) return;
    const remember = () => store.set(StorageKeys.confirmedTimezone, device);
    toast.show(t`This device is set to ${zoneLabel(device!, i18n.locale)}, your profile to ${zoneLabel(profile!, i18n.locale)}. Dates are shown in your profile’s time zone.`, {
      kind: 'info',
      duration: null,
      id: 'timezone-confirm',
      action: {
        label: t`Use this device’s time zone`,
        run: () => {
          remember();
          void (async () => {
            try {
              const updated = await Accounts.updateMe({ timezone: device });
              session.setUser(updated);
              await applyUserPreferences(updated);
            } catch (error) {
              showApiError(error);
            }
          })();
        },
      },
    });
    // Dismissing the question keeps the profile's zone: remembered as answered for this device zone.
    const unsubscribe = toast.subscribe(() => {
      if (!toast.getToasts().some((entry) => entry.id === 'timezone-confirm')) {
        remember();
        unsubscribe();
      }
    });
    return () => unsubscribe();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user?.id, user?.timezone]);
}

/**
 * The shell rules that are not screens (issue #17 part 8): the challenge overlay, the API helper on
 * Ctrl+Shift+A, the additional script, the time zone question and the error reporter. Each visible
 * part is its own lazy chunk; what stays here is a few listeners.
 */
export function ShellRulesHost() {
  const [challenge, setChallenge] = useState<{ resolve: (passed: boolean) => void } | null>(null);
  const [helperOpen, setHelperOpen] = useApiHelperKey();
  const { status } = useSession();
  useAdditionalScripts();
  useTimeZoneConfirmation();
  useEffect(() => {
    setChallengeSolver(() => new Promise<boolean>((resolve) => setChallenge({ resolve })));
    return () => setChallengeSolver(null);
  }, []);
  return (
    <>
      {challenge && (
        <Suspense fallback={null}>
          <ChallengeOverlay
            onDone={(passed) => {
              challenge.resolve(passed);
              setChallenge(null);
            }}
          />
        </Suspense>
      )}
      {helperOpen && status === 'signedIn' && (
        <Suspense fallback={null}>
          <ApiHelper onClose={() => setHelperOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
