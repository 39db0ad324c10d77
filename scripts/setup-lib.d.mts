// Types of the parts of setup-lib.mjs that TypeScript callers use (scripts/scale-up.ts, bench/scale-out.ts).
export const root: string;
/** Starts a private PostgreSQL cluster on `port` (0: a free one private to this checkout and `name`); null when PostgreSQL cannot be had. */
export function startPostgres(port?: number, name?: string): { url: string; stop(): void } | null;
