import { describe, expect, it } from 'vitest';
import { DELAYED_SYNC_MAX_MS } from '../../schema/constants';
import { ManualClock } from '../../sync-worker/clock';
import { Connection, DISCONNECT_GRACE_MS } from '../../sync-worker/connection';

function setup(random = 0.5, online = true) {
  const clock = new ManualClock();
  const log: string[] = [];
  const conn = new Connection(clock, () => random, {
    onReconnect: () => log.push('reconnect'),
    onDelayedSync: () => log.push('delayed-sync'),
    onStatus: (s) => log.push(s),
  }, online);
  return { clock, log, conn };
}

describe('connection state machine (shell.md §4)', () => {
  it('an offline event disconnects only after the grace delay; coming back within it changes nothing', () => {
    const { clock, log, conn } = setup();
    conn.browserOffline();
    clock.advance(DISCONNECT_GRACE_MS - 1);
    expect(conn.status).toBe('connected');
    conn.browserOnline();
    clock.advance(DISCONNECT_GRACE_MS * 2);
    expect(conn.status).toBe('connected');
    expect(log).toEqual([]);
    conn.browserOffline();
    clock.advance(DISCONNECT_GRACE_MS);
    expect(conn.status).toBe('disconnected');
    expect(log).toEqual(['disconnected']);
  });

  it('a realtime drop disconnects after the delay; a pong reconnects', () => {
    const { clock, log, conn } = setup();
    conn.realtimeDropped();
    clock.advance(DISCONNECT_GRACE_MS);
    expect(conn.status).toBe('disconnected');
    conn.realtimePong();
    expect(conn.status).toBe('connected');
    expect(log).toEqual(['disconnected', 'connected', 'reconnect']);
  });

  it('an HTTP network failure disconnects at once; a successful non-GET reconnects, a GET does not', () => {
    const { log, conn } = setup();
    conn.networkFailure();
    expect(conn.status).toBe('disconnected');
    conn.requestSucceeded('GET');
    expect(conn.status).toBe('disconnected');
    conn.requestSucceeded('PUT');
    expect(conn.status).toBe('connected');
    expect(log).toEqual(['disconnected', 'connected', 'reconnect']);
  });

  it('starts disconnected when the browser says offline; realtime reconnect connects', () => {
    const { conn } = setup(0.5, false);
    expect(conn.status).toBe('disconnected');
    conn.realtimeReconnected();
    expect(conn.status).toBe('connected');
  });

  it('on reconnect the delayed full sync fires after random × 420 s, once', () => {
    const { clock, log, conn } = setup(0.25);
    conn.networkFailure();
    conn.browserOnline();
    expect(conn.hasDelayedSync()).toBe(true);
    clock.advance(DELAYED_SYNC_MAX_MS * 0.25 - 1);
    expect(log).not.toContain('delayed-sync');
    clock.advance(1);
    expect(log.filter((l) => l === 'delayed-sync')).toHaveLength(1);
    clock.advance(DELAYED_SYNC_MAX_MS * 2);
    expect(log.filter((l) => l === 'delayed-sync')).toHaveLength(1);
  });

  it('never waits longer than 420 s, and a later reconnect replaces the waiting sync', () => {
    const { clock, log, conn } = setup(0.999999);
    conn.networkFailure();
    conn.browserOnline();
    conn.networkFailure();
    conn.browserOnline();
    clock.advance(DELAYED_SYNC_MAX_MS);
    expect(log.filter((l) => l === 'delayed-sync')).toHaveLength(1);
  });
});
