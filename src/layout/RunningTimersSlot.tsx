import { useEffect, useState, type ComponentType } from 'react';
import { useSession } from '../api/session';

type RunningTimersProps = { userId: number };

/**
 * The running timers read the replica through the board store: a chunk of their own, not the
 * shell's. The frame loads it after first paint, so it may be asked for while the server is out of
 * reach: a failed load must not take the frame down with it (React.lazy would throw into the route's
 * error boundary and blank the page, Not saved line included), so it shows nothing and tries again.
 */
function useRunningTimersChunk(): ComponentType<RunningTimersProps> | null {
  const [component, setComponent] = useState<ComponentType<RunningTimersProps> | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = () => {
      import('../boards/time/RunningTimers').then(
        (module) => {
          if (!stopped) setComponent(() => module.default);
        },
        () => {
          if (!stopped) timer = setTimeout(attempt, 15_000);
        },
      );
    };
    const onOnline = () => {
      clearTimeout(timer);
      attempt();
    };
    attempt();
    window.addEventListener('online', onOnline);
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener('online', onOnline);
    };
  }, []);
  return component;
}

/** The frame's place for the signed-in user's running timers (guests do not track time). */
export function RunningTimersSlot() {
  const { status, user } = useSession();
  if (status !== 'signedIn' || !user || user.guest) return null;
  return <LoadedRunningTimers userId={user.id} />;
}

function LoadedRunningTimers({ userId }: RunningTimersProps) {
  const RunningTimers = useRunningTimersChunk();
  return RunningTimers ? <RunningTimers userId={userId} /> : null;
}
