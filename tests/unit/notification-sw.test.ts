import { describe, expect, it } from 'vitest';
import { desktopNotificationOf, inAppUrl } from '../../src/sw/notifications';
import { urlBase64ToBytes } from '../../src/notifications/push';

/** What the service worker agrees to show and open (src/sw/notifications.ts), and the VAPID key bytes. */
const origin = 'https://cairn.example';

describe('desktop notifications in the service worker', () => {
  it('shows a push payload as given, with its in-app url and tag', () => {
    expect(desktopNotificationOf({ title: 'Ana mentioned you on Launch', body: 'Look', url: '/b/B/B/I?t=comments&comment=C&notification=4', tag: 'notification-4', notification: {} }, origin)).toEqual({
      title: 'Ana mentioned you on Launch',
      body: 'Look',
      url: 'https://cairn.example/b/B/B/I?t=comments&comment=C&notification=4',
      tag: 'notification-4',
    });
  });

  it('refuses a payload without a title, and bounds what it shows', () => {
    expect(desktopNotificationOf(null, origin)).toBeNull();
    expect(desktopNotificationOf({ body: 'x' }, origin)).toBeNull();
    expect(desktopNotificationOf({ title: '   ' }, origin)).toBeNull();
    const long = desktopNotificationOf({ title: 't'.repeat(1000), body: 'b'.repeat(5000) }, origin)!;
    expect(long.title).toHaveLength(200);
    expect(long.body).toHaveLength(500);
    expect(long.tag).toBe('notification');
  });

  it('opens only pages of the app: another origin or a script url opens the start page', () => {
    expect(inAppUrl('/profile/billing', origin)).toBe('https://cairn.example/profile/billing');
    expect(inAppUrl('https://evil.example/phish', origin)).toBe('https://cairn.example/');
    expect(inAppUrl('javascript:alert(1)', origin)).toBe('https://cairn.example/');
    expect(inAppUrl(42, origin)).toBe('https://cairn.example/');
  });
});

describe('urlBase64ToBytes', () => {
  it('decodes the base64url VAPID key (65 bytes, uncompressed P-256 point)', () => {
    const bytes = new Uint8Array(65).map((_, i) => (i * 37) % 256);
    const text = Buffer.from(bytes).toString('base64url');
    expect(text).not.toContain('=');
    expect([...urlBase64ToBytes(text)]).toEqual([...bytes]);
  });
});
