import { lazy, Suspense } from 'react';
import { useSession } from '../api/session';

/** The running timers read the replica through the board store: a chunk of their own, not the shell's. */
const RunningTimers = lazy(() => import('../boards/time/RunningTimers'));

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
