import type { Generated, NullableTimestamp, Timestamp } from '../types';

/** Tables of the notifications module (migration 0101_notifications). */
export interface NotificationTables {
  /** One row per notification per recipient (workspace.md §3). */
  notifications: {
    /** bigint: the driver reads it as a string. */
    id: Generated<string>;
    user_id: number;
    notification_type: string;
    /** Names the notification among its event's, so a second delivery of the event adds nothing. */
    dedupe_key: string;
    team_id: number | null;
    board_id: string | null;
    folder_id: string | null;
    item_id: string | null;
    comment_id: string | null;
    template_id: string | null;
    subscribeable_type: string | null;
    subscribeable_id: string | null;
    actor_id: number | null;
    created_by_name: string | null;
    board_name: string | null;
    item_name: string | null;
    attribute_name: string | null;
    template_name: string | null;
    form_name: string | null;
    body: string | null;
    usage: number | null;
    limit: number | null;
    read_at: NullableTimestamp;
    created_at: Timestamp;
    emailed_at: NullableTimestamp;
    pushed_at: NullableTimestamp;
  };
  /** Who follows which item (following=false: unfollowed on purpose). */
  item_follows: {
    item_id: string;
    user_id: number;
    team_id: number;
    following: boolean;
    reason: 'creator' | 'assignee' | 'commenter' | 'mentioned' | 'manual';
    created_at: Timestamp;
  };
  /** A user's choices per notification type; no row means the defaults. */
  notification_settings: {
    user_id: number;
    notification_type: string;
    in_app: boolean;
    email: boolean;
    push: boolean;
  };
  /** Web Push subscriptions (device tokens) of signed-in sessions. */
  push_subscriptions: {
    id: Generated<string>;
    user_id: number;
    session_id: number | null;
    token: string;
    endpoint: string;
    created_at: Timestamp;
    last_error: string | null;
  };
}
