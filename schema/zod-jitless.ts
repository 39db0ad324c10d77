import { z } from 'zod/v4';

/**
 * zod for the browser: in the Vite build every `import … from 'zod'` resolves to this module
 * (vite.config.ts, resolve.alias), which turns zod's eval-compiled parsers off before it hands zod
 * out. zod compiles object parsers with `new Function` when it may, and probes for that once, when
 * the first object schema is created; the app's Content-Security-Policy has no 'unsafe-eval'
 * (docs/decisions/0092-secrets-and-headers.md), so the probe would be refused and reported as a
 * violation. Jitless parsing gives the same results without eval.
 *
 * Because every importer of zod imports it through here, the switch runs before the first schema
 * in any chunk, whichever screen loads zod first — so the app shell no longer has to load zod at
 * start just to switch it off (decision 0275). The sync workers still import this module first.
 * 'zod/v4' is the same build of zod as 'zod' (zod 4), and is not aliased.
 */
z.config({ jitless: true });

export * from 'zod/v4';
export { z, z as default };
