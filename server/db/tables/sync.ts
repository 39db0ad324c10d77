/** Tables of the sync engine (records, change log, idempotency keys). Filled by the sync module. */
export interface SyncTables {}
