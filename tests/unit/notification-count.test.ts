import { describe, expect, it } from 'vitest';
import { UnreadCounter, notificationOf } from '../../sync-worker/notifications';

/** The unread-count state machine of the worker (sync-worker/notifications.ts). */
describe('UnreadCounter', () => {
  const fetchedAs = (counter: UnreadCounter, n: number) => expect(counter.fetched(n, counter.beginFetch())).toBe(true);

  it('is unknown until fetched; a fresh unread notification adds one', () => {
    const c = new UnreadCounter();
    expect(c.value).toBeNull();
    expect(c.saved({ id: '1', read_at: null })).toBe('uncertain');
    expect(c.value).toBeNull();
    fetchedAs(c, 3);
    expect(c.saved({ id: '2', read_at: null })).toBe('certain');
    expect(c.value).toBe(4);
  });

  it('counts a repeated event for the same unread notification once', () => {
    const c = new UnreadCounter();
    fetchedAs(c, 0);
    c.saved({ id: 'a', read_at: null });
    expect(c.saved({ id: 'a', read_at: null })).toBe('unchanged');
    expect(c.value).toBe(1);
  });

  it('moves by the read state of a known notification: read, then unread again', () => {
    const c = new UnreadCounter();
    fetchedAs(c, 0);
    c.saved({ id: 'a', read_at: null });
    c.saved({ id: 'b', read_at: null });
    expect(c.saved({ id: 'a', read_at: '2026-01-01T00:00:00Z' })).toBe('certain');
    expect(c.value).toBe(1);
    expect(c.marked(['a'], false)).toBe('certain');
    expect(c.value).toBe(2);
    expect(c.marked(['a', 'b'], true)).toBe('certain');
    expect(c.value).toBe(0);
  });

  it('asks the server when a mark or a read event names a notification it never saw', () => {
    const c = new UnreadCounter();
    fetchedAs(c, 5);
    expect(c.marked(['old'], true)).toBe('uncertain');
    expect(c.value).toBe(5);
    expect(c.saved({ id: 'older', read_at: '2026-01-01T00:00:00Z' })).toBe('uncertain');
    expect(c.value).toBe(5);
  });

  it('drops a fetched count when something changed while the fetch was under way', () => {
    const c = new UnreadCounter();
    fetchedAs(c, 2);
    const token = c.beginFetch();
    c.saved({ id: 'x', read_at: null }); // may or may not be in the server's answer
    expect(c.fetched(3, token)).toBe(false);
    expect(c.value).toBe(3);
    expect(c.fetched(7, c.beginFetch())).toBe(true);
    expect(c.value).toBe(7);
  });

  it('all read sets zero and makes later events of known ids count from read', () => {
    const c = new UnreadCounter();
    fetchedAs(c, 0);
    c.saved({ id: 'a', read_at: null });
    c.saved({ id: 'b', read_at: null });
    expect(c.allRead()).toBe('certain');
    expect(c.value).toBe(0);
    expect(c.allRead()).toBe('unchanged');
    expect(c.saved({ id: 'a', read_at: '2026-01-01T00:00:00Z' })).toBe('unchanged');
    expect(c.marked(['b'], false)).toBe('certain');
    expect(c.value).toBe(1);
  });

  it('an offline start assumes the remembered count until the server answers', () => {
    const c = new UnreadCounter();
    expect(c.assume(4)).toBe(true);
    expect(c.value).toBe(4);
    expect(c.assume(9)).toBe(false);
    fetchedAs(c, 2);
    expect(c.value).toBe(2);
  });

  it('never goes below zero', () => {
    const c = new UnreadCounter();
    c.saved({ id: 'a', read_at: null });
    fetchedAs(c, 0); // the server already counted it as read elsewhere
    c.saved({ id: 'a', read_at: '2026-01-01T00:00:00Z' });
    expect(c.value).toBe(0);
  });
});

describe('a live notification the fetched count already holds', () => {
  it('is not counted twice: one at or below the id the count was taken through asks again', () => {
    const c = new UnreadCounter();
    // The count's answer (1 unread, through id 5) came before the live event of that same id 5.
    expect(c.fetched(1, c.beginFetch(), 5)).toBe(true);
    expect(c.saved({ id: '5', read_at: null })).toBe('uncertain');
    expect(c.value).toBe(1);
    // A newer one is new.
    expect(c.saved({ id: '6', read_at: null })).toBe('certain');
    expect(c.value).toBe(2);
  });

  it('counts an unseen one at once when the server gave no id to compare with', () => {
    const c = new UnreadCounter();
    c.fetched(1, c.beginFetch());
    expect(c.saved({ id: '5', read_at: null })).toBe('certain');
    expect(c.value).toBe(2);
  });
});

describe('notificationOf', () => {
  const record = { id: 7, notification_type: 'comment_mentioned', read_at: null, created_at: '2026-01-01T00:00:00Z' };

  it('reads the record bare, wrapped or as JSON text', () => {
    expect(notificationOf(record)?.id).toBe('7');
    expect(notificationOf({ notification: record })?.id).toBe('7');
    expect(notificationOf({ data: record })?.id).toBe('7');
    expect(notificationOf(JSON.stringify(record))?.id).toBe('7');
  });

  it('refuses what is not a notification', () => {
    expect(notificationOf(null)).toBeNull();
    expect(notificationOf('nonsense')).toBeNull();
    expect(notificationOf({ id: 7 })).toBeNull();
    expect(notificationOf({ notification_type: 'x' })).toBeNull();
  });
});
