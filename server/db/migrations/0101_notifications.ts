import { sql } from 'kysely';
import type { Migration } from '../migrate';

/**
 * Notifications (server/notifications, decision 0111): the notification records of
 * workspace.md §3, who follows which item, each user's per-type delivery settings, the Web Push
 * subscriptions of their devices, and the state of the batched notification mail.
 */
export const m0101_notifications: Migration = {
  name: '0101_notifications',
  async up(db) {
    await sql`
      create table notifications (
        id bigint generated always as identity primary key,
        user_id integer not null references users(id) on delete cascade,
        notification_type text not null,
        -- Delivery is at least once: the consumer names each notification (event id + type), and a
        -- second delivery of the same event inserts nothing.
        dedupe_key text not null,
        team_id integer references teams(id) on delete cascade,
        board_id text,
        folder_id text,
        item_id text,
        comment_id text,
        template_id text,
        subscribeable_type text,
        subscribeable_id text,
        actor_id integer references users(id) on delete set null,
        created_by_name text,
        board_name text,
        item_name text,
        attribute_name text,
        template_name text,
        form_name text,
        body text,
        usage double precision,
        "limit" double precision,
        read_at timestamptz,
        created_at timestamptz not null,
        -- Set when the batched mail or a push has carried it, so neither repeats it.
        emailed_at timestamptz,
        pushed_at timestamptz,
        unique (user_id, dedupe_key)
      )`.execute(db);
    // The list, newest first, and the unread count.
    await sql`create index notifications_user on notifications (user_id, id desc)`.execute(db);
    await sql`create index notifications_unread on notifications (user_id, id) where read_at is null`.execute(db);

    await sql`
      create table item_follows (
        item_id text not null,
        user_id integer not null references users(id) on delete cascade,
        team_id integer not null references teams(id) on delete cascade,
        -- false: the user unfollowed; kept so automatic follows (commenting, being assigned) do
        -- not undo that choice.
        following boolean not null,
        -- creator, assignee, commenter, mentioned, manual
        reason text not null,
        created_at timestamptz not null,
        primary key (item_id, user_id)
      )`.execute(db);
    await sql`create index item_follows_user on item_follows (user_id)`.execute(db);

    await sql`
      create table notification_settings (
        user_id integer not null references users(id) on delete cascade,
        notification_type text not null,
        in_app boolean not null,
        email boolean not null,
        push boolean not null,
        primary key (user_id, notification_type)
      )`.execute(db);

    await sql`
      create table push_subscriptions (
        id bigint generated always as identity primary key,
        user_id integer not null references users(id) on delete cascade,
        -- The session that registered it: signing out of that session removes it.
        session_id integer references access_tokens(id) on delete cascade,
        -- The token as the client sent it (PushSubscription JSON); the endpoint is its key.
        token text not null,
        endpoint text not null unique,
        created_at timestamptz not null,
        last_error text
      )`.execute(db);
    await sql`create index push_subscriptions_user on push_subscriptions (user_id)`.execute(db);
  },
};
