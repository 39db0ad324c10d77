import { describe, expect, it } from 'vitest';
import { createToastStore, testModeFromSearch, toastDuration, MAX_TOASTS, type ToastClock } from '../../src/ui/toast-store';

/** A manual clock for the pure UI timing modules: time moves only when a test calls advance(). */
function createFakeClock(start = 1_000): ToastClock & { advance(ms: number): void; pending(): number } {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        let nextKey: number | null = null;
        for (const [id, timer] of timers) {
          if (timer.at <= end && (nextKey === null || timer.at < timers.get(nextKey)!.at)) nextKey = id;
        }
        if (nextKey === null) break;
        const timer = timers.get(nextKey)!;
        timers.delete(nextKey);
        now = timer.at;
        timer.fn();
      }
      now = end;
    },
    pending: () => timers.size,
  };
}

describe('toast durations', () => {
  it('uses the spec durations per kind', () => {
    expect(toastDuration('default', undefined, false)).toBe(3_000);
    expect(toastDuration('connected', undefined, false)).toBe(5_000);
    expect(toastDuration('syncing', undefined, false)).toBe(5_000);
    expect(toastDuration('error', undefined, false)).toBe(5_000);
    expect(toastDuration('offline', undefined, false)).toBe(10_000);
    expect(toastDuration('desktopUpdate', undefined, false)).toBe(15_000);
  });

  it('scales by 0.2 in test mode, explicit durations too', () => {
    expect(toastDuration('default', undefined, true)).toBe(600);
    expect(toastDuration('offline', undefined, true)).toBe(2_000);
    expect(toastDuration('default', 4_000, true)).toBe(800);
    expect(toastDuration('default', 4_000, false)).toBe(4_000);
  });

  it('keeps sticky toasts sticky', () => {
    expect(toastDuration('error', null, true)).toBeNull();
  });

  it('reads test mode from the query string', () => {
    expect(testModeFromSearch('?test_mode=1')).toBe(true);
    expect(testModeFromSearch('?a=b&test_mode=true')).toBe(true);
    expect(testModeFromSearch('?test_mode=0')).toBe(false);
    expect(testModeFromSearch('')).toBe(false);
  });
});

describe('toast store timeline', () => {
  it('enters for 300 ms, stays for its duration, leaves for 300 ms, then is removed', () => {
    const clock = createFakeClock();
    const store = createToastStore(clock);
    const id = store.show('Saved');
    expect(store.getToasts()).toMatchObject([{ id, message: 'Saved', kind: 'default', phase: 'entering', duration: 3_000 }]);
    clock.advance(299);
    expect(store.getToasts()[0].phase).toBe('entering');
    clock.advance(1);
    expect(store.getToasts()[0].phase).toBe('visible');
    clock.advance(2_699);
    expect(store.getToasts()[0].phase).toBe('visible');
    clock.advance(1);
    expect(store.getToasts()[0].phase).toBe('leaving');
    clock.advance(299);
    expect(store.getToasts()).toHaveLength(1);
    clock.advance(1);
    expect(store.getToasts()).toHaveLength(0);
    expect(clock.pending()).toBe(0);
  });

  it('dismisses an offline toast after 10 s, or 2 s in test mode', () => {
    const clock = createFakeClock();
    const store = createToastStore(clock);
    store.show('You are offline', { kind: 'offline' });
    clock.advance(9_999);
    expect(store.getToasts()[0].phase).toBe('visible');
    clock.advance(1);
    expect(store.getToasts()[0].phase).toBe('leaving');

    store.clear();
    store.setTestMode(true);
    expect(store.isTestMode()).toBe(true);
    store.show('You are offline', { kind: 'offline' });
    clock.advance(1_999);
    expect(store.getToasts()[0].phase).toBe('visible');
    clock.advance(1);
    expect(store.getToasts()[0].phase).toBe('leaving');
    clock.advance(300);
    expect(store.getToasts()).toHaveLength(0);
  });

  it('creates the store in test mode when asked', () => {
    const clock = createFakeClock();
    const store = createToastStore(clock, { testMode: true });
    store.show('Connected', { kind: 'connected' });
    expect(store.getToasts()[0].duration).toBe(1_000);
  });

  it('dismiss starts the leave animation at once', () => {
    const clock = createFakeClock();
    const store = createToastStore(clock);
    const id = store.show('Hello');
    clock.advance(500);
    store.dismiss(id);
    expect(store.getToasts()[0].phase).toBe('leaving');
    clock.advance(300);
    expect(store.getToasts()).toEqual([]);
  });

  it('a sticky toast stays until dismissed', () => {
    const clock = createFakeClock();
    const store = createToastStore(clock);
    const id = store.show('Update ready', { duration: null, action: { label: 'Reload', run: () => {} } });
    clock.advance(300);
    expect(store.getToasts()[0].phase).toBe('visible');
    clock.advance(3_600_000);
    expect(store.getToasts()[0].phase).toBe('visible');
    store.dismiss(id);
    clock.advance(300);
    expect(store.getToasts()).toHaveLength(0);
  });

  it('pausing keeps the toast; resuming counts down only the time that was left', () => {
    const clock = createFakeClock();
    const store = createToastStore(clock);
    const id = store.show('Hover me');
    clock.advance(1_000);
    store.pause(id);
    expect(store.getToasts()[0].paused).toBe(true);
    clock.advance(60_000);
    expect(store.getToasts()[0].phase).toBe('visible');
    store.resume(id);
    clock.advance(1_999);
    expect(store.getToasts()[0].phase).toBe('visible');
    clock.advance(1);
    expect(store.getToasts()[0].phase).toBe('leaving');
  });

  it('showing with the same id replaces the toast and restarts its countdown', () => {
    const clock = createFakeClock();
    const store = createToastStore(clock);
    store.show('Offline', { id: 'connection', kind: 'offline' });
    clock.advance(9_000);
    store.show('Connected', { id: 'connection', kind: 'connected' });
    expect(store.getToasts()).toHaveLength(1);
    expect(store.getToasts()[0]).toMatchObject({ message: 'Connected', kind: 'connected', duration: 5_000 });
    clock.advance(4_999);
    expect(store.getToasts()[0].phase).toBe('visible');
    clock.advance(1);
    expect(store.getToasts()[0].phase).toBe('leaving');
  });

  it('showing an id again while its toast leaves brings a fresh one that the old removal leaves alone', () => {
    const clock = createFakeClock();
    const store = createToastStore(clock);
    store.show('Offline', { id: 'connection', kind: 'offline' });
    store.dismiss('connection');
    clock.advance(100);
    store.show('Connected', { id: 'connection', kind: 'connected' });
    expect(store.getToasts()).toMatchObject([{ id: 'connection', message: 'Connected', phase: 'entering' }]);
    clock.advance(300);
    expect(store.getToasts()).toMatchObject([{ message: 'Connected', phase: 'visible' }]);
    clock.advance(4_700);
    expect(store.getToasts()[0].phase).toBe('leaving');
  });

  it('keeps at most MAX_TOASTS on screen, sending the oldest away first', () => {
    const clock = createFakeClock();
    const store = createToastStore(clock);
    const ids = Array.from({ length: MAX_TOASTS + 2 }, (_, i) => store.show(`m${i}`));
    const live = store.getToasts().filter((t) => t.phase !== 'leaving');
    expect(live.map((t) => t.id)).toEqual(ids.slice(2));
    clock.advance(300);
    expect(store.getToasts().map((t) => t.id)).toEqual(ids.slice(2));
  });

  it('notifies subscribers with a new snapshot on each change', () => {
    const clock = createFakeClock();
    const store = createToastStore(clock);
    const snapshots: unknown[] = [];
    const off = store.subscribe(() => snapshots.push(store.getToasts()));
    store.show('a');
    clock.advance(300);
    expect(snapshots).toHaveLength(2);
    expect(snapshots[0]).not.toBe(snapshots[1]);
    off();
    clock.advance(10_000);
    expect(snapshots).toHaveLength(2);
  });
});
