import { Suspense } from 'react';
import { useSession } from '../api/session';
import { lazyRetry } from '../ui/lazy-retry';

/**
 * The running timers read the replica through the board store: a chunk of their own, not the
 * shell's. The frame asks for it after first paint, possibly while the server is out of reach:
 * lazyRetry shows nothing meanwhile and tries again, so a failed load never blanks the page (Not
 * saved line included).
 */
const RunningTimers = lazyRetry(() => import('../boards/time/RunningTimers'));

/** The frame's place for the signed-in user's running timers (guests do not track time). */
export function RunningTimersSlot() {
  const { status, user } = useSession();
  if (status !== 'signedIn' || !user || user.guest) return null;
  return (
    <Suspense fallback={null}>
      <RunningTimers userId={user.id} />
    </Suspense>
  );
}
