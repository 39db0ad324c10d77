import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '../../db/index';
import { migrate } from '../../db/migrate';

/**
 * The coupons CLI (decision 0250; docs/operations.md "Coupons"): an instance administrator makes
 * percent-off coupons a customer enters at checkout, once per person. Against DATABASE_URL (else
 * the embedded database in DATA_DIR). Run with `npx tsx server/billing/payments/coupon-cli.ts <command>`:
 *
 *   list                     every coupon, with how often it was used
 *   create <CODE> <percent>  a coupon of 1–100 % off the first invoice it is used on
 *   disable <CODE>           no longer accepted (invoices that used it keep it)
 */

const usage = 'usage: coupons list | create <CODE> <percent 1-100> | disable <CODE>';

/**
 * Runs one command. `database`, when given, is used (and left open) instead of opening the one the
 * environment names: tests run several commands on one database without booting it for each.
 */
export async function runCouponCli(argv: string[], env: NodeJS.ProcessEnv, out: (line: string) => void, database?: DatabaseHandle): Promise<number> {
  const [command, code, percentText] = argv;
  if (!command || !['list', 'create', 'disable'].includes(command) || (command !== 'list' && !code)) {
    out(usage);
    return 2;
  }
  const normalized = (code ?? '').trim().toUpperCase();
  if (command !== 'list' && !/^[A-Z0-9_-]{2,60}$/.test(normalized)) {
    out('code: must be 2–60 letters, digits, dashes or underscores');
    return 1;
  }
  const percent = Number(percentText);
  if (command === 'create' && (!Number.isInteger(percent) || percent < 1 || percent > 100)) {
    out('percent: must be a whole number from 1 to 100');
    return 1;
  }
  const handle = database ?? (await openDatabase({ databaseUrl: env.DATABASE_URL || null, dataDir: path.resolve(env.DATA_DIR ?? 'data') }));
  try {
    await migrate(handle.db);
    if (command === 'list') {
      const rows = await handle.db
        .selectFrom('coupons')
        .leftJoin('coupon_redemptions', 'coupon_redemptions.code', 'coupons.code')
        .select(['coupons.code', 'coupons.percent_off', 'coupons.active', (eb) => eb.fn.count<string>('coupon_redemptions.user_id').as('used')])
        .groupBy(['coupons.code', 'coupons.percent_off', 'coupons.active'])
        .orderBy('coupons.code')
        .execute();
      for (const r of rows) out(`${r.code}\t${r.percent_off} % off once\t${r.active ? 'active' : 'disabled'}\tused ${r.used}`);
      return 0;
    }
    if (command === 'create') {
      const made = await handle.db.insertInto('coupons').values({ code: normalized, percent_off: percent }).onConflict((oc) => oc.column('code').doNothing()).returning('code').executeTakeFirst();
      if (!made) {
        out(`coupon ${normalized} exists already`);
        return 1;
      }
      out(`created coupon ${normalized}: ${percent} % off once`);
      return 0;
    }
    const done = await handle.db.updateTable('coupons').set({ active: false }).where('code', '=', normalized).executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) {
      out(`no coupon ${normalized}`);
      return 1;
    }
    out(`disabled coupon ${normalized}`);
    return 0;
  } finally {
    if (!database) await handle.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.dirname ?? '', 'coupon-cli.ts')) {
  runCouponCli(process.argv.slice(2), process.env, (line) => console.log(line)).then((code) => process.exit(code));
}
