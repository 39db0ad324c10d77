/**
 * The name of a user's replica database, `cairn-{userId}`. Apart from db.ts so the tab can name a
 * database without loading Dexie (client.ts re-exports it; decision 0275).
 */
export const dbNameFor = (userId: number | string) => `cairn-${userId}`;
