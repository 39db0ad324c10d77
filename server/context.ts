import type { Kysely } from 'kysely';
import type { Database } from './db/types';
import type { ServerConfig } from './config';
import type { Mailer } from './mail/mailer';
import type { JobQueue } from './jobs/types';

/** Publishes realtime events; the realtime module provides the real one (embedded or external). */
export interface Broadcaster {
  publish(channel: string, event: string, data: unknown, opts?: { excludeSocketId?: string }): Promise<void>;
  /** Several events in order (one write's); lets the realtime module judge their readers together. */
  publishMany?(events: { channel: string; event: string; data: unknown }[], opts?: { excludeSocketId?: string }): Promise<void>;
}

/** What every domain module receives. Time comes from `now()` so tests can move it. */
export interface AppContext {
  db: Kysely<Database>;
  config: ServerConfig;
  mailer: Mailer;
  broadcaster: Broadcaster;
  /** Background jobs and domain event consumers (server/jobs, server/events; decision 0110). */
  jobs: JobQueue;
  now(): Date;
}

/** Until the realtime module is attached, events go nowhere (tests that need them attach it). */
export const silentBroadcaster: Broadcaster = { async publish() {} };
