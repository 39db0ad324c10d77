import { STATUS_ACTIVITY_THROTTLE_MS, STATUS_POLL_DELAY_MS } from '../../schema/constants';

/**
 * The status banner's polling (shell.md §4, §7, §9): `GET {host}/message` is asked
 * STATUS_POLL_DELAY_MS after activity pauses; activity is taken at most once per
 * STATUS_ACTIVITY_THROTTLE_MS (so at most one ask per 45 s of use); nothing is asked while the tab
 * is hidden (showing it again counts as activity). 200 with content shows the banner, 204 or empty
 * content removes it, any other status or a failure stops the polling for good.
 * Pure: timers, the clock and the fetch are injected (tests/unit/status-poll.test.ts).
 */
export interface StatusPollEnv {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Answers the status and the content read from the body (null when none). Throws on no answer. */
  fetchMessage(): Promise<{ status: number; content: string | null }>;
  hidden(): boolean;
}

export interface StatusPoller {
  /** Something the user did (pointer, key, scroll, touch, tab shown). */
  activity(): void;
  /** The tab was hidden: the pending ask is dropped. */
  hide(): void;
  stopped(): boolean;
  stop(): void;
}

export function createStatusPoller(env: StatusPollEnv, show: (content: string | null) => void): StatusPoller {
  let lastActivity = Number.NEGATIVE_INFINITY;
  let timer: unknown = null;
  let done = false;
  let asking = false;

  const clear = () => {
    if (timer !== null) env.clearTimeout(timer);
    timer = null;
  };

  const ask = async () => {
    timer = null;
    if (done || asking || env.hidden()) return;
    asking = true;
    try {
      const { status, content } = await env.fetchMessage();
      if (done) return;
      if (status === 204 || (status === 200 && !content?.trim())) show(null);
      else if (status === 200) show(content);
      else done = true;
    } catch {
      done = true;
    } finally {
      asking = false;
    }
  };

  return {
    activity() {
      if (done || env.hidden()) return;
      const now = env.now();
      if (now - lastActivity < STATUS_ACTIVITY_THROTTLE_MS) return;
      lastActivity = now;
      clear();
      timer = env.setTimeout(() => void ask(), STATUS_POLL_DELAY_MS);
    },
    hide() {
      clear();
      // Coming back is activity again, whatever the throttle said.
      lastActivity = Number.NEGATIVE_INFINITY;
    },
    stopped: () => done,
    stop() {
      done = true;
      clear();
    },
  };
}

/** Reads `{content}` from a /message answer; anything else is no content. */
export async function readMessage(response: Response): Promise<{ status: number; content: string | null }> {
  if (response.status !== 200) return { status: response.status, content: null };
  try {
    const body = (await response.json()) as { content?: unknown };
    return { status: 200, content: typeof body?.content === 'string' ? body.content : null };
  } catch {
    return { status: 200, content: null };
  }
}
