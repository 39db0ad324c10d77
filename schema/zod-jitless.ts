import { z } from 'zod';

/**
 * Browser entries import this first (src/main.tsx, the sync workers). zod compiles object parsers
 * with `new Function` when it may, and probes for that once; the app's Content-Security-Policy has
 * no 'unsafe-eval' (docs/decisions/0092-secrets-and-headers.md), so the probe would be refused and
 * reported as a violation. Jitless parsing gives the same results without eval. It must run before
 * the first schema is built: zod reads the setting when an object schema is created.
 */
z.config({ jitless: true });
