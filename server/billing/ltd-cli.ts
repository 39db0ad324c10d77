import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types';
import { openDatabase } from '../db/index';
import { migrate } from '../db/migrate';
import { generateLtdCodes } from './ltd';

/**
 * The lifetime-deal codes CLI (issue #18; docs/operations.md "Lifetime deals"), against the
 * database DATABASE_URL names (else the embedded one in DATA_DIR):
 *
 *   npx tsx server/billing/ltd-cli.ts generate <count> [--plan ltd] [--note "reseller batch 3"]
 *       prints one new code a line (redeem at /activate-ltd/{code})
 *   npx tsx server/billing/ltd-cli.ts list [--unused]
 *       code, plan, note, created, redeemed (when, by user id, onto subscription id)
 */

const usage = 'usage: ltd generate <count> [--plan <id>] [--note <text>] | list [--unused]';

function flag(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

type Handle = { db: Kysely<Database>; close(): Promise<void> };

export async function runLtdCli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: (line: string) => void,
  opts: { now?: () => Date; /** Tests: an open database instead of DATABASE_URL / DATA_DIR. */ open?: () => Promise<Handle> } = {},
): Promise<number> {
  const now = opts.now ?? (() => new Date());
  const [command, arg] = argv;
  if (command !== 'generate' && command !== 'list') {
    out(usage);
    return 2;
  }
  const count = Number(arg);
  if (command === 'generate' && (!Number.isInteger(count) || count < 1 || count > 10000)) {
    out('count must be a whole number from 1 to 10000');
    return 2;
  }
  const handle: Handle = opts.open ? await opts.open() : await openDatabase({ databaseUrl: env.DATABASE_URL || null, dataDir: path.resolve(env.DATA_DIR ?? 'data') });
  try {
    if (!opts.open) await migrate(handle.db);
    if (command === 'generate') {
      try {
        const codes = await generateLtdCodes(handle.db, count, { plan: flag(argv, '--plan'), note: flag(argv, '--note') ?? null, now: now() });
        for (const code of codes) out(code);
        return 0;
      } catch (error) {
        out((error as Error).message);
        return 1;
      }
    }
    let query = handle.db.selectFrom('ltd_codes').selectAll().orderBy('created_at').orderBy('code');
    if (argv.includes('--unused')) query = query.where('redeemed_at', 'is', null);
    for (const row of await query.execute()) {
      const redeemed = row.redeemed_at ? `redeemed ${new Date(row.redeemed_at).toISOString()} by user ${row.redeemed_by} onto subscription ${row.subscription_id}` : 'unused';
      out(`${row.code}\t${row.plan}\t${row.note ?? ''}\t${new Date(row.created_at).toISOString()}\t${redeemed}`);
    }
    return 0;
  } finally {
    await handle.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.dirname ?? '', 'ltd-cli.ts')) {
  runLtdCli(process.argv.slice(2), process.env, (line) => console.log(line)).then((code) => process.exit(code));
}
