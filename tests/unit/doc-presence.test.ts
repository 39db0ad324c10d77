import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { encodeAwarenessUpdate, Awareness } from 'y-protocols/awareness';
import { AWARENESS_CHECK_MS, AWARENESS_RENEW_MS, AWARENESS_SEND_MS, AWARENESS_STALE_MS, DocPresence, DeferredTransport, type AwarenessMessage, type PresenceTransport } from '../../src/boards/docs/presence';
import { toBase64 } from '../../src/boards/docs/doc-body';

/**
 * Document presence (decision 0218): awareness states go out as throttled events on a channel
 * that stamps the sender's user id (as the presence channel does), the label is that member's
 * name whatever the sender claims, another document's events are ignored, and leaving (or the
 * member leaving the channel) removes the caret.
 */

/** A channel: every message reaches the other subscribers with the sender's attested user id. */
class Channel {
  readonly sent: { from: string; message: AwarenessMessage }[] = [];
  private readonly ends = new Set<{ userId: string; message: Set<(m: AwarenessMessage, u: string | null) => void>; removed: Set<(u: string) => void> }>();

  join(userId: string): PresenceTransport {
    const end = { userId, message: new Set<(m: AwarenessMessage, u: string | null) => void>(), removed: new Set<(u: string) => void>() };
    this.ends.add(end);
    return {
      send: (message) => {
        this.sent.push({ from: userId, message });
        for (const other of this.ends) if (other !== end) other.message.forEach((l) => l(message, userId));
      },
      onMessage: (l) => (end.message.add(l), () => end.message.delete(l)),
      onMemberRemoved: (l) => (end.removed.add(l), () => end.removed.delete(l)),
    };
  }

  /** A raw event from someone, as the server would relay it. */
  inject(message: AwarenessMessage, userId: string | null) {
    for (const end of this.ends) end.message.forEach((l) => l(message, userId));
  }

  memberLeft(userId: string) {
    for (const end of this.ends) end.removed.forEach((l) => l(userId));
  }
}

const names: Record<string, string> = { '1': 'Ana Owner', '2': 'Bo Writer' };
const nameOf = (id: string) => names[id] ?? id;

describe('DocPresence', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function pair() {
    const channel = new Channel();
    const docA = new Y.Doc();
    const docB = new Y.Doc();
    const a = new DocPresence(docA, 'item1', channel.join('1'), nameOf, () => Date.now());
    const b = new DocPresence(docB, 'item1', channel.join('2'), nameOf, () => Date.now());
    return { channel, a, b };
  }

  it('shows the other editor with the attested member name, whatever name the state claims', () => {
    const { a, b } = pair();
    a.awareness.setLocalStateField('user', { name: 'I am the admin', color: '#000' });
    a.awareness.setLocalStateField('cursor', { anchor: 1, head: 1 });
    vi.advanceTimersByTime(AWARENESS_SEND_MS);
    const seen = b.remote();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ clientId: a.awareness.clientID, userId: '1', name: 'Ana Owner' });
    expect(b.userOf(a.awareness.clientID).name).toBe('Ana Owner');
    // B answered with its own state once A appeared, so A sees B too.
    vi.advanceTimersByTime(AWARENESS_SEND_MS);
    expect(a.remote().map((r) => r.name)).toEqual(['Bo Writer']);
    a.destroy();
    b.destroy();
  });

  it('sends at most one event per interval while the caret moves', () => {
    const { channel, a, b } = pair();
    for (let i = 0; i < 50; i++) {
      a.awareness.setLocalStateField('cursor', { anchor: i, head: i });
      vi.advanceTimersByTime(10);
    }
    vi.advanceTimersByTime(AWARENESS_SEND_MS);
    const fromA = channel.sent.filter((s) => s.from === '1').length;
    // 500 ms of moving: about two events, never one per move.
    expect(fromA).toBeGreaterThanOrEqual(2);
    expect(fromA).toBeLessThanOrEqual(Math.ceil(600 / AWARENESS_SEND_MS) + 1);
    expect((b.awareness.getStates().get(a.awareness.clientID) as { cursor: { anchor: number } }).cursor.anchor).toBe(49);
    a.destroy();
    b.destroy();
  });

  it('ignores events without an attested user, for another document, or setting someone else’s client', () => {
    const { channel, b } = pair();
    const stranger = new Awareness(new Y.Doc());
    stranger.setLocalStateField('cursor', { anchor: 1, head: 1 });
    const update = toBase64(encodeAwarenessUpdate(stranger, [stranger.clientID]));
    channel.inject({ item: 'item1', client: stranger.clientID, update }, null);
    channel.inject({ item: 'item2', client: stranger.clientID, update }, '1');
    expect(b.remote()).toEqual([]);
    // Claims to be client 777 but carries the stranger's client: that state is dropped.
    channel.inject({ item: 'item1', client: 777, update }, '1');
    expect(b.awareness.getStates().has(stranger.clientID)).toBe(false);
    // Broken bytes change nothing and throw nothing.
    channel.inject({ item: 'item1', client: 5, update: 'AAAA' }, '1');
    expect(b.remote()).toEqual([]);
    stranger.destroy();
    b.destroy();
  });

  it('drops the caret when the other leaves the document or the channel', () => {
    const { a, b } = pair();
    a.awareness.setLocalStateField('cursor', { anchor: 1, head: 1 });
    vi.advanceTimersByTime(AWARENESS_SEND_MS);
    expect(b.remote()).toHaveLength(1);
    a.destroy();
    expect(b.remote()).toEqual([]);

    const { channel, a: c, b: d } = pair();
    c.awareness.setLocalStateField('cursor', { anchor: 2, head: 2 });
    vi.advanceTimersByTime(AWARENESS_SEND_MS);
    expect(d.remote()).toHaveLength(1);
    channel.memberLeft('1');
    expect(d.remote()).toEqual([]);
    b.destroy();
    c.destroy();
    d.destroy();
  });

  it('drops a tab gone without a word within the stale bound, though another tab of the same member stays on the channel', () => {
    const channel = new Channel();
    let alive = true;
    const wire = channel.join('1');
    // Tab A1 of member 1 will go silent (a closed browser context: no pagehide, no leave event);
    // tab A2 of the same member stays, so the channel never reports member 1 as gone.
    const a1 = new DocPresence(new Y.Doc(), 'item1', { ...wire, send: (m) => void (alive && wire.send(m)) }, nameOf, () => Date.now());
    const a2 = new DocPresence(new Y.Doc(), 'item1', channel.join('1'), nameOf, () => Date.now());
    const b = new DocPresence(new Y.Doc(), 'item1', channel.join('2'), nameOf, () => Date.now());
    a1.awareness.setLocalStateField('cursor', { anchor: 1, head: 1 });
    vi.advanceTimersByTime(AWARENESS_SEND_MS);
    const ids = () => b.remote().map((r) => r.clientId).sort();
    expect(ids()).toEqual([a1.awareness.clientID, a2.awareness.clientID].sort());
    // Quiet tabs that are still there renew their state: nobody is dropped.
    vi.advanceTimersByTime(AWARENESS_STALE_MS * 4);
    expect(ids()).toEqual([a1.awareness.clientID, a2.awareness.clientID].sort());
    alive = false;
    vi.advanceTimersByTime(AWARENESS_STALE_MS - AWARENESS_RENEW_MS - 2 * AWARENESS_CHECK_MS);
    expect(b.remote()).toHaveLength(2);
    vi.advanceTimersByTime(AWARENESS_RENEW_MS + 3 * AWARENESS_CHECK_MS);
    expect(ids()).toEqual([a2.awareness.clientID]);
    // Back (a throttled background tab): shown again at its next renewal, and answered.
    alive = true;
    const sentByB = channel.sent.filter((s) => s.from === '2').length;
    vi.advanceTimersByTime(AWARENESS_RENEW_MS + AWARENESS_CHECK_MS + AWARENESS_SEND_MS);
    expect(ids()).toEqual([a1.awareness.clientID, a2.awareness.clientID].sort());
    expect(channel.sent.filter((s) => s.from === '2').length).toBeGreaterThan(sentByB);
    expect(a1.remote().map((r) => r.clientId)).toContain(b.awareness.clientID);
    for (const p of [a1, a2, b]) p.destroy();
  });

  it('a page hidden for good leaves at once, and one back from the back/forward cache is here again', () => {
    const { a, b } = pair();
    a.awareness.setLocalStateField('cursor', { anchor: 1, head: 1 });
    vi.advanceTimersByTime(AWARENESS_SEND_MS);
    expect(b.remote()).toHaveLength(1);
    a.leave();
    expect(b.remote()).toEqual([]);
    // Gone means gone: no renewal brings it back until the page is shown again.
    vi.advanceTimersByTime(AWARENESS_RENEW_MS * 2);
    expect(b.remote()).toEqual([]);
    a.rejoin();
    vi.advanceTimersByTime(AWARENESS_SEND_MS);
    expect(b.remote()).toHaveLength(1);
    a.destroy();
    b.destroy();
  });

  it('a deferred transport sends the newest message once its link arrives, and closes a link that comes late', async () => {
    vi.useRealTimers();
    const channel = new Channel();
    const listener = channel.join('2');
    const got: AwarenessMessage[] = [];
    listener.onMessage((m) => got.push(m));
    let arrive!: (link: PresenceTransport & { close(): void }) => void;
    const deferred = new DeferredTransport(() => new Promise((resolve) => (arrive = resolve)));
    deferred.send({ item: 'i', client: 1, update: 'old' });
    deferred.send({ item: 'i', client: 1, update: 'new' });
    arrive({ ...channel.join('1'), close: () => undefined });
    await Promise.resolve();
    await Promise.resolve();
    expect(got.map((m) => m.update)).toEqual(['new']);
    let closed = false;
    let late!: (link: PresenceTransport & { close(): void }) => void;
    const gone = new DeferredTransport(() => new Promise((resolve) => (late = resolve)));
    gone.close();
    late({ ...channel.join('3'), close: () => void (closed = true) });
    await Promise.resolve();
    await Promise.resolve();
    expect(closed).toBe(true);
  });
});
