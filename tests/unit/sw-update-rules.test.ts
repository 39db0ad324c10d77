import { describe, expect, it } from 'vitest';
import { FORCED_RELOAD_MAX_MS, FORCED_RELOAD_MIN_MS, VERSION_CHECK_INTERVAL_MS } from '../../schema/constants';
import { createUpdateController, forcedReloadDelay, signalFromHeaders, startVersionChecks, throttle, versionDiffers, type StoredUpdate, type UpdateSignal, type UpdateTimers } from '../../src/sw/update-rules';

/** A clock the test moves by hand. */
function fakeTimers() {
  let now = 0;
  let next = 1;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: UpdateTimers = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = next++;
      pending.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (id) => void pending.delete(id as number),
  };
  return {
    timers,
    pending: () => pending.size,
    async advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = [...pending.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        pending.delete(due[0]);
        now = due[1].at;
        due[1].fn();
        await Promise.resolve();
        await Promise.resolve();
      }
      now = until;
    },
  };
}

function controller(random = () => 0.5) {
  const clock = fakeTimers();
  const stored: StoredUpdate[] = [];
  const prompts: UpdateSignal[] = [];
  let reloads = 0;
  const updates = createUpdateController({ timers: clock.timers, random, store: (f) => stored.push(f), prompt: (s) => prompts.push(s), reload: () => reloads++ });
  return { clock, stored, prompts, updates, reloads: () => reloads };
}

describe('update rules', () => {
  it('a detected update stores the flag and prompts once', () => {
    const c = controller();
    c.updates.signal({ source: 'service-worker' });
    c.updates.signal({ source: 'version' });
    expect(c.stored).toEqual([{ source: 'service-worker', force: false, at: 0 }]);
    expect(c.prompts).toHaveLength(1);
    expect(c.reloads()).toBe(0);
    expect(c.clock.pending()).toBe(0);
  });

  it('with the force flag the page reloads by itself after the random 60–160 s', async () => {
    const c = controller(() => 0.25);
    c.updates.signal({ source: 'header', force: true });
    expect(c.prompts).toHaveLength(1);
    await c.clock.advance(FORCED_RELOAD_MIN_MS + 0.25 * (FORCED_RELOAD_MAX_MS - FORCED_RELOAD_MIN_MS) - 1);
    expect(c.reloads()).toBe(0);
    await c.clock.advance(1);
    expect(c.reloads()).toBe(1);
    await c.clock.advance(FORCED_RELOAD_MAX_MS);
    expect(c.reloads()).toBe(1);
  });

  it('a force after a plain prompt schedules the reload and stores the stronger flag', async () => {
    const c = controller(() => 0.999);
    c.updates.signal({ source: 'version' });
    c.updates.signal({ source: 'header', force: true });
    expect(c.prompts).toHaveLength(1);
    expect(c.stored.map((f) => f.force)).toEqual([false, true]);
    await c.clock.advance(FORCED_RELOAD_MAX_MS);
    expect(c.reloads()).toBe(1);
  });

  it('x-force-reload reloads at once, and only once', () => {
    const c = controller();
    c.updates.signal({ source: 'header', force: true });
    c.updates.signal({ source: 'header', now: true });
    c.updates.signal({ source: 'header', now: true });
    expect(c.reloads()).toBe(1);
    expect(c.clock.pending()).toBe(0);
  });

  it('the forced delay stays within 60–160 s for any random value', () => {
    expect(forcedReloadDelay(() => 0)).toBe(60_000);
    expect(forcedReloadDelay(() => 0.9999999)).toBe(160_000);
    expect(forcedReloadDelay(() => 7)).toBe(160_000);
  });

  it('reads the update headers', () => {
    const headers = (h: Record<string, string>) => (name: string) => h[name] ?? null;
    expect(signalFromHeaders(headers({}))).toBeNull();
    expect(signalFromHeaders(headers({ 'x-update-required': '0' }))).toBeNull();
    expect(signalFromHeaders(headers({ 'x-update-required': '1' }))).toEqual({ source: 'header', force: false });
    expect(signalFromHeaders(headers({ 'x-update-required': 'force' }))).toEqual({ source: 'header', force: true });
    expect(signalFromHeaders(headers({ 'x-update-required': '1', 'x-force-reload': '1' }))).toEqual({ source: 'header', force: true, now: true });
  });

  it('compares versions: any other non-empty version is an update', () => {
    expect(versionDiffers('34.3.6', '34.3.6')).toBe(false);
    expect(versionDiffers('34.3.6', '34.3.7')).toBe(true);
    expect(versionDiffers('34.3.6', '34.3.5')).toBe(true);
    expect(versionDiffers('34.3.6', undefined)).toBe(false);
    expect(versionDiffers('34.3.6', '')).toBe(false);
  });

  it('checks the version on start and every hour, through failures, until it differs', async () => {
    const clock = fakeTimers();
    const answers: Array<string | Error> = ['34.3.6', new Error('offline'), '34.3.6', '35.0.0'];
    let asked = 0;
    let outdated = 0;
    startVersionChecks({
      clientVersion: '34.3.6',
      timers: clock.timers,
      fetchServerVersion: async () => {
        const answer = answers[asked++]!;
        if (answer instanceof Error) throw answer;
        return answer;
      },
      onOutdated: () => outdated++,
    });
    await clock.advance(0);
    expect(asked).toBe(1);
    await clock.advance(VERSION_CHECK_INTERVAL_MS - 1);
    expect(asked).toBe(1);
    await clock.advance(1);
    expect(asked).toBe(2);
    await clock.advance(2 * VERSION_CHECK_INTERVAL_MS);
    expect(asked).toBe(4);
    expect(outdated).toBe(1);
    expect(clock.pending()).toBe(0);
  });

  it('asks for a service worker update at most once per 60 s window', () => {
    let now = 0;
    let runs = 0;
    const check = throttle(60_000, () => now, () => runs++);
    expect(check()).toBe(true);
    now = 59_999;
    expect(check()).toBe(false);
    now = 60_000;
    expect(check()).toBe(true);
    expect(runs).toBe(2);
  });
});
