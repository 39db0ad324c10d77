import { describe, expect, it } from 'vitest';
import { NOTIFICATION_TYPES, type Notification } from '../../schema/notifications';
import { matchRoute } from '../../schema/routes';
import { notificationTarget, openingHref } from '../../src/notifications/targets';

/** workspace.md §2, notification-to-route mapping. */
const base: Notification = {
  id: '41',
  notification_type: 'comment_mentioned',
  team_id: 3,
  board_id: 'B1',
  folder_id: 'F1',
  item_id: 'I1',
  comment_id: 'C1',
  template_id: null,
  subscribeable_type: null,
  subscribeable_id: null,
  read_at: null,
  created_at: '2026-11-24T10:00:00.000Z',
  created_by_name: 'Ana',
  board_name: 'Roadmap',
  item_name: 'Launch',
  attribute_name: 'Owner',
  template_name: null,
  form_name: null,
  body: 'Look at this',
  usage: null,
  limit: null,
};
const n = (fields: Partial<Notification>): Notification => ({ ...base, ...fields });
const href = (fields: Partial<Notification>, current = {}) => notificationTarget(n(fields), current)?.href ?? null;

describe('notificationTarget', () => {
  it('opens the item on its comments tab with the comment highlighted for comments, reactions and mentions', () => {
    for (const type of ['comment_created', 'comment_reaction_created', 'comment_mentioned'] as const) {
      expect(href({ notification_type: type })).toBe('/b/B1/F1/I1?t=comments&comment=C1');
    }
  });

  it('opens the attributes tab for members fields and form submissions; the item for automation items', () => {
    expect(href({ notification_type: 'members_attribute_added' })).toBe('/b/B1/F1/I1?t=attributes');
    expect(href({ notification_type: 'form_submitted' })).toBe('/b/B1/F1/I1?t=attributes');
    expect(href({ notification_type: 'automation_item' })).toBe('/b/B1/F1/I1');
  });

  it('an item at the board’s top level has the board as its folder', () => {
    expect(href({ folder_id: null })).toBe('/b/B1/B1/I1?t=comments&comment=C1');
  });

  it('boards, usage, billing and templates', () => {
    expect(href({ notification_type: 'automation_board' })).toBe('/b/B1');
    expect(href({ notification_type: 'automation_runs_warning' })).toBe('/b/B1/F1?t=usage&automations=1');
    expect(href({ notification_type: 'automation_runs_exceeded', folder_id: null })).toBe('/b/B1/B1?t=usage&automations=1');
    expect(href({ notification_type: 'storage_warning' })).toBe('/profile/billing');
    expect(href({ notification_type: 'storage_exceeded' })).toBe('/profile/billing');
    expect(href({ notification_type: 'template_shared', template_id: '77' })).toBe('/profile/templates/77');
  });

  it('user subscribed: the item for ITEM, the folder view for FOLDERVIEW', () => {
    expect(href({ notification_type: 'user_subscribed', subscribeable_type: 'ITEM', subscribeable_id: 'I9' })).toBe('/b/B1/F1/I9?t=attributes');
    expect(href({ notification_type: 'user_subscribed', subscribeable_type: 'FOLDERVIEW', subscribeable_id: 'V2' })).toBe('/b/B1/F1?view=V2');
    expect(href({ notification_type: 'user_subscribed', subscribeable_type: null })).toBeNull();
  });

  it('unknown types and missing ids lead nowhere', () => {
    expect(href({ notification_type: 'something_new' as never })).toBeNull();
    expect(href({ item_id: null })).toBeNull();
    expect(href({ notification_type: 'template_shared', template_id: null })).toBeNull();
  });

  it('carries the current view query over on the same board only', () => {
    expect(href({}, { boardId: 'B1', view: 'V7' })).toBe('/b/B1/F1/I1?t=comments&comment=C1&view=V7');
    expect(href({}, { boardId: 'other', view: 'V7' })).toBe('/b/B1/F1/I1?t=comments&comment=C1');
  });

  it('every target is a route of the app; the opening href marks the notification read on arrival', () => {
    for (const type of NOTIFICATION_TYPES) {
      const target = notificationTarget(n({ notification_type: type, template_id: '5', subscribeable_type: 'ITEM', subscribeable_id: 'I2' }));
      expect(target, type).not.toBeNull();
      expect(matchRoute(target!.href), type).not.toBeNull();
    }
    expect(openingHref(n({}))).toBe('/b/B1/F1/I1?t=comments&comment=C1&notification=41');
    expect(openingHref(n({ notification_type: 'automation_board' }))).toBe('/b/B1?notification=41');
    // A board moved out of the workspace: its boards, where it no longer is.
    expect(href({ notification_type: 'board_moved' })).toBe('/team/3');
  });
});
