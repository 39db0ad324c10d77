import type { ColumnType, Generated } from 'kysely';

/**
 * The database as Kysely sees it. Each domain module declares its own tables in
 * `server/db/tables/<module>.ts`; this interface joins them.
 */
import type { AccountTables } from './tables/accounts';
import type { WorkspaceTables } from './tables/workspaces';
import type { SyncTables } from './tables/sync';
import type { RealtimeTables } from './tables/realtime';
import type { BoardAccessTables } from './tables/board-access';
import type { FilesTables } from './tables/files';
import type { NotificationTables } from './tables/notifications';
import type { EventsTables } from './tables/events';
import type { AutomationTables } from './tables/automations';
import type { HookTables } from './tables/hooks';
import type { DeveloperTables } from './tables/developer';
import type { TemplateTables } from './tables/templates';
import type { ShellTables } from './tables/shell';
import type { BoardJobTables } from './tables/board-jobs';
import type { BillingTables } from './tables/billing';
import type { PaymentTables } from './tables/payments';
import type { SsoTables } from './tables/sso';
import type { ReferralTables } from './tables/referral';
import type { BillingExtraTables } from './tables/billing-extras';
import type { WhitelabelTables } from './tables/whitelabel';
import type { SyncConflictTables } from './tables/sync-conflicts';

export interface Database extends AccountTables, WorkspaceTables, SyncTables, RealtimeTables, BoardAccessTables, FilesTables, NotificationTables, EventsTables, AutomationTables, HookTables, DeveloperTables, BoardJobTables, TemplateTables, ShellTables, BillingTables, PaymentTables, BillingExtraTables, ReferralTables, WhitelabelTables, SsoTables, SyncConflictTables {}

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
export type Json<T> = ColumnType<T, string, string>;
export type { Generated };
