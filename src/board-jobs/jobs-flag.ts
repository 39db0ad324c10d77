/**
 * The one thing the app shell knows of board jobs (decision 0160): a flag in local storage that a
 * job may be running, and the event a tab sends when it starts one. The shell loads the progress
 * tray (a chunk of its own) only while the flag is set, so nobody without jobs pays for it.
 */
export const JOBS_FLAG_KEY = 'cairn.boardJobs.watch';
export const JOB_STARTED_EVENT = 'cairn:board-job-started';

export function isWatchingJobs(): boolean {
  try {
    return localStorage.getItem(JOBS_FLAG_KEY) === '1';
  } catch {
    return false;
  }
}

export function setWatchingJobs(on: boolean): void {
  try {
    if (on) localStorage.setItem(JOBS_FLAG_KEY, '1');
    else localStorage.removeItem(JOBS_FLAG_KEY);
  } catch {
    // Private mode without storage: the tray still shows for this tab's jobs.
  }
}

/** Called when this tab started a job: the tray loads (or refreshes) at once. */
export function announceJobStarted(): void {
  setWatchingJobs(true);
  window.dispatchEvent(new Event(JOB_STARTED_EVENT));
}
