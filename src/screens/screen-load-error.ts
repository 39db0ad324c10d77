import { CHUNK_LOAD_TIMEOUT_MS } from '../../schema/constants';

/** The message of a screen whose code could not be fetched (see router.tsx). */
export const SCREEN_LOAD_ERROR = 'The screen could not be loaded';
/** The message of a screen whose code did not arrive within CHUNK_LOAD_TIMEOUT_MS (shell.md §9). */
export const SCREEN_LOAD_TIMEOUT = 'The screen took too long to load';

/**
 * A screen's code, given up on after `timeoutMs` (120 s): a fetch that hangs (a captive portal, a
 * stalled proxy) then shows the retry page instead of the progress bar for ever. A failure becomes
 * SCREEN_LOAD_ERROR, a timeout SCREEN_LOAD_TIMEOUT; a late answer after the timeout is dropped.
 */
export function loadScreenWithin<T>(load: () => Promise<T>, timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(SCREEN_LOAD_TIMEOUT)), timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        reject(new Error(SCREEN_LOAD_ERROR));
      },
    );
  });
}
