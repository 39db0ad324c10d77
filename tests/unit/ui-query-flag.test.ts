import { describe, expect, it } from 'vitest';
import { BACK_SETTLE_MS, createHistoryQueryFlags, type HistoryEnv } from '../../src/ui/query-flag';
import { NAVIGATE_EVENT } from '../../src/ui/navigation-events';

/** A History + Location + EventTarget stand-in that behaves like the browser's for these calls. */
function fakeWindow(startUrl: string) {
  const target = new EventTarget();
  const entries: Array<{ url: string; state: unknown }> = [{ url: startUrl, state: null }];
  let index = 0;
  const origin = new URL(startUrl).origin;
  const env: HistoryEnv = {
    location: {
      get href() {
        return entries[index].url;
      },
    },
    history: {
      get state() {
        return entries[index].state;
      },
      pushState(state, _unused, url) {
        entries.splice(index + 1);
        entries.push({ url: new URL(url, origin).href, state: structuredClone(state) });
        index++;
      },
      replaceState(state, _unused, url) {
        entries[index] = { url: new URL(url, origin).href, state: structuredClone(state) };
      },
      back() {
        // Like the browser: the traversal and its popstate happen asynchronously.
        queueMicrotask(() => {
          if (index === 0) return;
          index--;
          target.dispatchEvent(new Event('popstate'));
        });
      },
    },
    addEventListener: (type, listener) => target.addEventListener(type, listener),
    removeEventListener: (type, listener) => target.removeEventListener(type, listener),
    dispatchEvent: (event) => target.dispatchEvent(event),
  };
  return { env, entries: () => entries.map((e) => e.url), index: () => index, target };
}

const noTimers = { setTimeout: () => 0 };

describe('query flag adapter', () => {
  it('reads ?key=on only', () => {
    const { env } = fakeWindow('https://app.test/b/1?menu=on&other=1');
    const flags = createHistoryQueryFlags(env, noTimers);
    expect(flags.read('menu')).toBe(true);
    expect(flags.read('other')).toBe(false);
    expect(flags.read('missing')).toBe(false);
  });

  it('opening pushes an entry with the flag; closing goes back to the entry before', async () => {
    const win = fakeWindow('https://app.test/b/1?view=2#top');
    const flags = createHistoryQueryFlags(win.env, noTimers);
    let calls = 0;
    const off = flags.subscribe(() => calls++);

    await flags.set('menu', true);
    expect(win.entries()).toEqual(['https://app.test/b/1?view=2#top', 'https://app.test/b/1?view=2&menu=on#top']);
    expect(flags.read('menu')).toBe(true);
    expect(calls).toBe(1);

    await flags.set('menu', false);
    expect(win.index()).toBe(0);
    expect(flags.read('menu')).toBe(false);
    expect(calls).toBe(2); // the popstate
    off();
  });

  it('the browser Back button closes it as well', async () => {
    const win = fakeWindow('https://app.test/home');
    const flags = createHistoryQueryFlags(win.env, noTimers);
    await flags.set('sheet', true);
    let seen: boolean | null = null;
    flags.subscribe(() => (seen = flags.read('sheet')));
    win.env.history.back();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toBe(false);
  });

  it('a flag that came with the URL (reload, shared link) is removed in place', async () => {
    const win = fakeWindow('https://app.test/b/1?menu=on&x=1');
    const flags = createHistoryQueryFlags(win.env, noTimers);
    let calls = 0;
    flags.subscribe(() => calls++);
    await flags.set('menu', false);
    expect(win.entries()).toEqual(['https://app.test/b/1?x=1']);
    expect(calls).toBe(1);
  });

  it('setting the state it already has does nothing', async () => {
    const win = fakeWindow('https://app.test/a');
    const flags = createHistoryQueryFlags(win.env, noTimers);
    await flags.set('menu', false);
    await flags.set('menu', true);
    await flags.set('menu', true);
    expect(win.entries()).toHaveLength(2);
  });

  it('keeps the router state of the entry it copies', async () => {
    const win = fakeWindow('https://app.test/a');
    win.env.history.replaceState({ key: 'router-key' }, '', '/a');
    const flags = createHistoryQueryFlags(win.env, noTimers);
    await flags.set('menu', true);
    expect(win.env.history.state).toMatchObject({ key: 'router-key' });
  });

  it('does not hang when the back traversal never reports', async () => {
    const win = fakeWindow('https://app.test/a');
    const timers: Array<() => void> = [];
    const flags = createHistoryQueryFlags(win.env, { setTimeout: (fn: () => void, ms: number) => { expect(ms).toBe(BACK_SETTLE_MS); timers.push(fn); } });
    await flags.set('menu', true);
    win.env.history.back = () => {}; // e.g. the traversal was cancelled
    const closing = flags.set('menu', false);
    timers.forEach((fn) => fn());
    await expect(closing).resolves.toBeUndefined();
  });

  it('router navigations reach subscribers', () => {
    const win = fakeWindow('https://app.test/a');
    const flags = createHistoryQueryFlags(win.env, noTimers);
    let calls = 0;
    const off = flags.subscribe(() => calls++);
    win.target.dispatchEvent(new Event(NAVIGATE_EVENT));
    off();
    win.target.dispatchEvent(new Event(NAVIGATE_EVENT));
    expect(calls).toBe(1);
  });
});
