/** Realtime keeps no tables today; declared so the module owns its place. */
export interface RealtimeTables {}
