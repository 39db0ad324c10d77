import { useEffect, useState, type ComponentType } from 'react';
import { useSession } from '../api/session';
import { isWatchingJobs, JOB_STARTED_EVENT } from '../board-jobs/jobs-flag';

/**
 * The frame's place for the background jobs tray (decision 0160). The tray is a chunk of its own,
 * loaded only while this browser watches a job (a flag set when a job starts, cleared once every
 * job has ended and been seen), so the shell carries only this slot. A failed load shows nothing
 * and is tried again, like the running timers' slot.
 */
export function BoardJobsSlot() {
  const { status, user } = useSession();
  const [watching, setWatching] = useState(isWatchingJobs);
  const [Tray, setTray] = useState<ComponentType | null>(null);
  useEffect(() => {
    const start = () => setWatching(true);
    window.addEventListener(JOB_STARTED_EVENT, start);
    return () => window.removeEventListener(JOB_STARTED_EVENT, start);
  }, []);
  const active = status === 'signedIn' && !!user && watching;
  useEffect(() => {
    if (!active || Tray) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = () =>
      import('../board-jobs/JobsTray').then(
        (module) => !stopped && setTray(() => module.default),
        () => {
          if (!stopped) timer = setTimeout(attempt, 15_000);
        },
      );
    void attempt();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [active, Tray]);
  return active && Tray ? <Tray /> : null;
}
