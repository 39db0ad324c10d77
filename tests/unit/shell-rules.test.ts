import { describe, expect, it } from 'vitest';
import { STATUS_ACTIVITY_THROTTLE_MS, STATUS_POLL_DELAY_MS } from '../../schema/constants';
import { createStatusPoller, type StatusPollEnv } from '../../src/navigation/status-poll';
import { createErrorReporter, MAX_REPORTS, type ErrorReport } from '../../src/navigation/error-reporter';
import { needsTimeZoneConfirmation, zoneLabel } from '../../src/navigation/timezone-confirm';
import { hasEmptyValue } from '../../src/navigation/query';
import { loadScreenWithin, SCREEN_LOAD_ERROR, SCREEN_LOAD_TIMEOUT } from '../../src/screens/screen-load-error';
import { isChallenge, obtainClearance, setChallengeSolver } from '../../src/navigation/challenge';

/** Timers the test moves by hand, and a /message that answers what the test says. */
function pollHarness(answers: Array<{ status: number; content: string | null } | 'fail'>) {
  let now = 0;
  let next = 1;
  let hidden = false;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const asked: number[] = [];
  const shown: Array<string | null> = [];
  const env: StatusPollEnv = {
    now: () => now,
    setTimeout: (fn, ms) => {
      pending.set(next, { at: now + ms, fn });
      return next++;
    },
    clearTimeout: (id) => void pending.delete(id as number),
    fetchMessage: async () => {
      asked.push(now);
      const answer = answers.shift() ?? { status: 204, content: null };
      if (answer === 'fail') throw new Error('no answer');
      return answer;
    },
    hidden: () => hidden,
  };
  const poller = createStatusPoller(env, (content) => shown.push(content));
  return {
    poller,
    asked,
    shown,
    setHidden: (value: boolean) => {
      hidden = value;
    },
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

describe('status banner polling (shell.md §4, §7, §9)', () => {
  it('asks 10 s after activity pauses, shows 200 content, removes it on 204', async () => {
    const h = pollHarness([{ status: 200, content: 'Maintenance at six' }, { status: 204, content: null }]);
    h.poller.activity();
    await h.advance(STATUS_POLL_DELAY_MS - 1);
    expect(h.asked).toEqual([]);
    await h.advance(1);
    expect(h.asked).toEqual([STATUS_POLL_DELAY_MS]);
    expect(h.shown).toEqual(['Maintenance at six']);
    await h.advance(STATUS_ACTIVITY_THROTTLE_MS);
    h.poller.activity();
    await h.advance(STATUS_POLL_DELAY_MS);
    expect(h.shown).toEqual(['Maintenance at six', null]);
  });

  it('takes activity at most once per 45 s, and each accepted activity restarts the 10 s wait', async () => {
    const h = pollHarness([]);
    h.poller.activity();
    await h.advance(5_000);
    h.poller.activity(); // within 45 s: ignored, the ask stays at 10 s
    await h.advance(5_000);
    expect(h.asked).toEqual([10_000]);
    for (let t = 0; t < 30; t++) {
      h.poller.activity();
      await h.advance(1_000);
    }
    expect(h.asked).toEqual([10_000]);
    await h.advance(STATUS_ACTIVITY_THROTTLE_MS);
    h.poller.activity();
    await h.advance(STATUS_POLL_DELAY_MS);
    expect(h.asked).toHaveLength(2);
  });

  it('an empty content removes the banner like a 204', async () => {
    const h = pollHarness([{ status: 200, content: '  ' }]);
    h.poller.activity();
    await h.advance(STATUS_POLL_DELAY_MS);
    expect(h.shown).toEqual([null]);
  });

  it('asks nothing while the tab is hidden; showing it again is activity', async () => {
    const h = pollHarness([]);
    h.poller.activity();
    h.setHidden(true);
    h.poller.hide();
    await h.advance(60_000);
    expect(h.asked).toEqual([]);
    h.poller.activity();
    await h.advance(60_000);
    expect(h.asked).toEqual([]);
    h.setHidden(false);
    h.poller.activity();
    await h.advance(STATUS_POLL_DELAY_MS);
    expect(h.asked).toHaveLength(1);
  });

  it.each([[{ status: 500, content: null }], [{ status: 404, content: null }], ['fail' as const]])('stops for good after %j', async (answer) => {
    const h = pollHarness([answer]);
    h.poller.activity();
    await h.advance(STATUS_POLL_DELAY_MS);
    expect(h.poller.stopped()).toBe(true);
    await h.advance(STATUS_ACTIVITY_THROTTLE_MS);
    h.poller.activity();
    await h.advance(STATUS_POLL_DELAY_MS * 10);
    expect(h.asked).toHaveLength(1);
    expect(h.shown).toEqual([]);
  });
});

describe('error reporter', () => {
  it('ignores "ResizeObserver loop limit exceeded", sends others once a minute, at most 10 a page', () => {
    let now = 0;
    const sent: ErrorReport[] = [];
    const report = createErrorReporter((r) => sent.push(r), () => now);
    expect(report({ message: 'ResizeObserver loop limit exceeded' })).toBe(false);
    expect(report({ message: 'TypeError: x is undefined', stack: 'at y' })).toBe(true);
    expect(report({ message: 'TypeError: x is undefined' })).toBe(false);
    now += 60_000;
    expect(report({ message: 'TypeError: x is undefined' })).toBe(true);
    for (let i = 0; i < 20; i++) report({ message: `error ${i}` });
    expect(sent).toHaveLength(MAX_REPORTS);
    expect(sent[0]).toEqual({ message: 'TypeError: x is undefined', stack: 'at y' });
  });
});

describe('time zone confirmation', () => {
  it('asks only when the profile names another zone than the device and this device zone was not answered', () => {
    expect(needsTimeZoneConfirmation(null, 'Europe/Belgrade', null)).toBe(false);
    expect(needsTimeZoneConfirmation('Europe/Belgrade', 'Europe/Belgrade', null)).toBe(false);
    expect(needsTimeZoneConfirmation('America/New_York', 'Europe/Belgrade', null)).toBe(true);
    expect(needsTimeZoneConfirmation('America/New_York', 'Europe/Belgrade', 'Europe/Belgrade')).toBe(false);
    // Travelled on: asks again.
    expect(needsTimeZoneConfirmation('America/New_York', 'Asia/Tokyo', 'Europe/Belgrade')).toBe(true);
    // Two names of one zone are not a difference.
    expect(needsTimeZoneConfirmation('Europe/Kiev', 'Europe/Kyiv', null)).toBe(false);
  });

  it('labels a zone with its offset now', () => {
    expect(zoneLabel('Asia/Tokyo', 'en-US', new Date('2026-01-01T00:00:00Z'))).toBe('Asia/Tokyo (GMT+09:00)');
    expect(zoneLabel('America/New_York', 'en-US', new Date('2026-01-01T00:00:00Z'))).toBe('America/New York (GMT-05:00)');
  });
});

describe('empty query values on load', () => {
  it('finds empty values but keeps the bare preview flags', () => {
    expect(hasEmptyValue('?view=&q=x')).toBe(true);
    expect(hasEmptyValue('?q=x')).toBe(false);
    expect(hasEmptyValue('')).toBe(false);
    expect(hasEmptyValue('?pretend&hide_header')).toBe(false);
    expect(hasEmptyValue('?pretend&q=')).toBe(true);
  });
});

describe('screen chunk load', () => {
  it('gives up after the timeout with the timeout message, and names a failure', async () => {
    await expect(loadScreenWithin(() => new Promise(() => {}), 20)).rejects.toThrow(SCREEN_LOAD_TIMEOUT);
    await expect(loadScreenWithin(() => Promise.reject(new Error('Failed to fetch dynamically imported module')), 1_000)).rejects.toThrow(SCREEN_LOAD_ERROR);
    await expect(loadScreenWithin(() => Promise.resolve(7), 1_000)).resolves.toBe(7);
  });
});

describe('challenge', () => {
  it('reads cf-mitigated: challenge, and requests challenged together share one check', async () => {
    expect(isChallenge(new Headers({ 'cf-mitigated': 'challenge' }))).toBe(true);
    expect(isChallenge(new Headers({}))).toBe(false);
    expect(await obtainClearance('/api/x')).toBe(false); // no overlay: given up
    let solves = 0;
    let pass: (ok: boolean) => void = () => {};
    setChallengeSolver(() => {
      solves += 1;
      return new Promise((resolve) => (pass = resolve));
    });
    const a = obtainClearance('/api/a');
    const b = obtainClearance('/api/b');
    pass(true);
    expect(await Promise.all([a, b])).toEqual([true, true]);
    expect(solves).toBe(1);
    setChallengeSolver(null);
  });
});
