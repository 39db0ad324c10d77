// Types of the parts of setup-lib.mjs that TypeScript callers use (scripts/scale-up.ts, bench/scale-out.ts).
export const root: string;
/** Starts a private PostgreSQL cluster on `port`; null when PostgreSQL cannot be had. */
export function startPostgres(port?: number): { url: string; stop(): void } | null;
