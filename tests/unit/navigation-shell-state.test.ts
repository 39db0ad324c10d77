import { describe, expect, it, vi } from 'vitest';
import { createStore } from '../../src/storage/local-store';
import { createConnectivity, OFFLINE_EVENT_DELAY_MS, PROBE_INTERVAL_MS } from '../../src/connectivity/connectivity';
import { canRefresh, isExpired, readToken } from '../../src/api/token';

/** A Storage-like object; `broken` makes every call throw like a refused localStorage. */
function fakeStorage(broken = false): Storage {
  const data = new Map<string, string>();
  const guard = () => {
    if (broken) throw new Error('SecurityError');
  };
  return {
    get length() {
      return data.size;
    },
    key: (i: number) => [...data.keys()][i] ?? null,
    getItem: (k: string) => (guard(), data.get(k) ?? null),
    setItem: (k: string, v: string) => (guard(), void data.set(k, v)),
    removeItem: (k: string) => (guard(), void data.delete(k)),
    clear: () => (guard(), data.clear()),
  } as unknown as Storage;
}

describe('local store', () => {
  it('keeps JSON values under the prefix and clears only its own keys', () => {
    const backing = fakeStorage();
    backing.setItem('other', 'x');
    const store = createStore(backing);
    expect(store.persistent).toBe(true);
    store.set('themeMode', 1);
    expect(backing.getItem('cairn.themeMode')).toBe('1');
    expect(store.get('themeMode', 2)).toBe(1);
    expect(store.get('missing', 'fallback')).toBe('fallback');
    store.clear();
    expect(backing.getItem('cairn.themeMode')).toBeNull();
    expect(backing.getItem('other')).toBe('x');
  });

  it('falls back to memory when storage is refused', () => {
    const store = createStore(fakeStorage(true));
    expect(store.persistent).toBe(false);
    store.set('sidebarVisible', false);
    expect(store.get('sidebarVisible', true)).toBe(false);
    store.clear();
    expect(store.get('sidebarVisible', true)).toBe(true);
  });
});

describe('connectivity store', () => {
  function setup(initialOnline = true) {
    vi.useFakeTimers();
    let serverUp = false;
    const probe = vi.fn(async () => serverUp);
    const c = createConnectivity({ initialOnline, probe, setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as never) });
    const changes: boolean[] = [];
    c.subscribe((state) => changes.push(state.online));
    return { c, probe, changes, up: () => (serverUp = true) };
  }

  it('goes offline at once on a network failure and back when a probe answers', async () => {
    const { c, probe, changes, up } = setup();
    c.networkFailure();
    expect(c.get().online).toBe(false);
    await vi.advanceTimersByTimeAsync(PROBE_INTERVAL_MS);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(c.get().online).toBe(false);
    up();
    await vi.advanceTimersByTimeAsync(PROBE_INTERVAL_MS);
    expect(c.get().online).toBe(true);
    expect(changes).toEqual([false, true]);
    vi.useRealTimers();
  });

  it('follows the sync engine when it reports its connection state', () => {
    const { c, changes } = setup();
    c.engineStatus('disconnected');
    c.engineStatus('disconnected');
    c.engineStatus('connected');
    expect(changes).toEqual([false, true]);
    vi.useRealTimers();
  });

  it('waits before trusting a browser offline event, and ignores a blip', async () => {
    const { c, changes } = setup();
    c.browserOffline();
    await vi.advanceTimersByTimeAsync(OFFLINE_EVENT_DELAY_MS - 1);
    c.browserOnline();
    await vi.advanceTimersByTimeAsync(OFFLINE_EVENT_DELAY_MS);
    expect(changes).toEqual([]);
    c.browserOffline();
    await vi.advanceTimersByTimeAsync(OFFLINE_EVENT_DELAY_MS);
    expect(changes).toEqual([false]);
    c.serverAnswered();
    expect(changes).toEqual([false, true]);
    vi.useRealTimers();
  });
});

describe('access token rules', () => {
  const created = '2026-01-01T00:00:00.000Z';
  const at = (seconds: number) => Date.parse(created) + seconds * 1000;

  it('requires access_token', () => {
    expect(() => readToken({ expires_in: 10 })).toThrow('Access Token does not have required property access_token.');
    expect(readToken({ access_token: 'a', expires_in: 60, created_at: created }).access_token).toBe('a');
  });

  it('expires 5 s early and is refreshable only within the refresh lifetime', () => {
    const token = { access_token: 'a', expires_in: 3600, refresh_expires_in: 7200, created_at: created };
    expect(isExpired(token, at(3594))).toBe(false);
    expect(isExpired(token, at(3595))).toBe(true);
    expect(canRefresh(token, at(100))).toBe(false);
    expect(canRefresh(token, at(3600))).toBe(true);
    expect(canRefresh(token, at(7195))).toBe(false);
  });
});
