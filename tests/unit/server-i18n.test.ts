import { describe, expect, it } from 'vitest';
import { serverLocale, translator } from '../../server/i18n/catalogs';
import { notificationTitle } from '../../server/notifications/texts';
import type { Notification } from '../../schema/notifications';
import { LOCALES } from '../../schema/constants';

const comment: Notification = {
  id: '1', notification_type: 'comment_created', team_id: 1, board_id: 'b', folder_id: 'b', item_id: 'i', comment_id: 'c', template_id: null,
  subscribeable_type: null, subscribeable_id: null, read_at: null, created_at: '2026-11-25T10:00:00Z', created_by_name: 'Ana', board_name: 'Ops',
  item_name: 'Launch', attribute_name: null, template_name: null, form_name: null, body: 'hi', usage: null, limit: null,
} as Notification;

describe('server texts in the recipient’s language', () => {
  it('picks the catalog from users.locale', () => {
    expect(serverLocale('de-DE')).toBe('de');
    expect(serverLocale('sr-Latn-RS')).toBe('sr');
    expect(serverLocale('pt-BR')).toBe('en');
    expect(serverLocale(null)).toBe('en');
  });

  it('formats placeholders and plurals by the locale’s rules', () => {
    const plural = '{count, plural, one {# new notification in Cairn} other {# new notifications in Cairn}}';
    expect(translator('en-US')(plural, { count: 1 })).toBe('1 new notification in Cairn');
    expect(translator('de-DE')(plural, { count: 3 })).toBe('3 neue Benachrichtigungen in Cairn');
    expect(translator('pl')(plural, { count: 2 })).toBe('2 nowe powiadomienia w Cairn');
    expect(translator('pl')(plural, { count: 5 })).toBe('5 nowych powiadomień w Cairn');
    expect(translator('de')('{who} commented on {item}', { who: 'Ana', item: 'Launch' })).toBe('Ana hat Launch kommentiert');
  });

  it('says every notification title in every language (never the English text where a translation exists)', () => {
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      const title = notificationTitle(comment, translator(locale));
      expect(title, locale).toContain('Ana');
      expect(title, locale).toContain('Launch');
      expect(title, locale).not.toBe('Ana commented on Launch');
    }
    expect(notificationTitle(comment)).toBe('Ana commented on Launch');
  });

  it('falls back to English for a message no catalog has', () => {
    expect(translator('ko')('Not in any catalog {x}', { x: 1 })).toBe('Not in any catalog 1');
  });
});
