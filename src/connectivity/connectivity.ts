/**
 * Online/offline as the app sees it (shell.md §4). The sync worker's connection machine has the
 * last word while it is there (signed in): its `connection` events set this store (`engineStatus`),
 * and the first answer the tab's own calls get after being offline is handed to the worker
 * (`attachEngine`) as well as shown at once, so a worker that was offline reconnects. Without
 * a worker session (signed out, a public page) the store derives the state from the browser
 * (online/offline events) and the tab's own requests. Screens only call `useConnectivity()`.
 */
export interface EngineLink {
  /** The tab's own call got an answer (true) or none at all (false). */
  reachedServer(reached: boolean): void;
}
export interface ConnectivityState {
  online: boolean;
}

export interface ConnectivityDeps {
  initialOnline: boolean;
  /** Probes the server; resolves true when it answers. Used while offline to notice the way back. */
  probe: () => Promise<boolean>;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

/** How long an `offline` event must last before we call it a disconnect (brief blips are ignored). */
export const OFFLINE_EVENT_DELAY_MS = 1_500;
/** Probe interval while offline. */
export const PROBE_INTERVAL_MS = 3_000;

export type ConnectivityListener = (state: ConnectivityState, previous: ConnectivityState) => void;

export function createConnectivity(deps: ConnectivityDeps) {
  let state: ConnectivityState = { online: deps.initialOnline };
  const listeners = new Set<ConnectivityListener>();
  let offlineTimer: unknown = null;
  let probeTimer: unknown = null;
  let engine: EngineLink | null = null;

  const set = (online: boolean) => {
    if (state.online === online) return;
    const previous = state;
    state = { online };
    for (const listener of listeners) listener(state, previous);
    if (!online) scheduleProbe();
    else stopProbe();
  };
  const stopProbe = () => {
    if (probeTimer !== null) deps.clearTimeout(probeTimer);
    probeTimer = null;
  };
  const scheduleProbe = () => {
    stopProbe();
    probeTimer = deps.setTimeout(async () => {
      probeTimer = null;
      if (state.online) return;
      const ok = await deps.probe().catch(() => false);
      if (ok) {
        engine?.reachedServer(true);
        set(true);
      }
      else if (!state.online) scheduleProbe();
    }, PROBE_INTERVAL_MS);
  };

  return {
    get: () => state,
    subscribe(listener: ConnectivityListener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** The browser reports online: connected at once. */
    browserOnline() {
      if (offlineTimer !== null) deps.clearTimeout(offlineTimer);
      offlineTimer = null;
      set(true);
    },
    /** The browser reports offline: disconnected after a short delay. */
    browserOffline() {
      if (offlineTimer !== null) return;
      offlineTimer = deps.setTimeout(() => {
        offlineTimer = null;
        set(false);
      }, OFFLINE_EVENT_DELAY_MS);
    },
    /**
     * An HTTP request failed at the network level: disconnected immediately. Not handed to the
     * worker: pushing its machine offline made it probe and reconnect on its own schedule, and its
     * later events flipped the tab back and forth (e2e shell-offline); it notices by itself.
     */
    networkFailure() {
      set(false);
    },
    /** A request got an answer from the server (any status): connected (the worker too). */
    serverAnswered() {
      if (!state.online) engine?.reachedServer(true);
      set(true);
    },
    /** The worker's machine becomes the owner: the tab's evidence goes to it. Returns a detach. */
    attachEngine(link: EngineLink) {
      engine = link;
      return () => {
        if (engine === link) engine = null;
      };
    },
    /** The sync engine's own verdict (its connection state machine), which wins when present. */
    engineStatus(status: 'connected' | 'disconnected') {
      set(status === 'connected');
    },
  };
}

export type Connectivity = ReturnType<typeof createConnectivity>;
