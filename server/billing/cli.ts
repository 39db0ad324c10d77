import fs from 'node:fs';
import path from 'node:path';
import { ZodError } from 'zod';
import { openDatabase, type DatabaseHandle } from '../db/index';
import { migrate } from '../db/migrate';
import { getPlan, listPlans, planAsInput, savePlan } from './plans';

/**
 * The plans CLI (issue #18 part 1; docs/operations.md "Plans"): an instance administrator lists,
 * shows and edits the plan catalogue of the database DATABASE_URL names (else the embedded one in
 * DATA_DIR). Run with `npx tsx server/billing/cli.ts <command>`:
 *
 *   list                   every plan (archived ones marked)
 *   show <id>              one plan as JSON, the shape `set` reads
 *   set <file.json | ->    create or replace a plan from JSON (a file, or - for standard input)
 *   archive <id>           stop offering a plan (subscriptions on it keep their limits)
 *   restore <id>           offer it again
 *
 * A running subscription keeps the limits it was given; a plan edit applies to new subscriptions
 * and trials (decision 0240).
 */

const usage = 'usage: plans list | show <id> | set <file.json|-> | archive <id> | restore <id>';

/**
 * Runs one command. `database`, when given, is used (and left open) instead of opening the one the
 * environment names: tests run many commands on one database without booting it for each.
 */
export async function runPlansCli(argv: string[], env: NodeJS.ProcessEnv, out: (line: string) => void, database?: DatabaseHandle): Promise<number> {
  const [command, arg] = argv;
  if (!command || !['list', 'show', 'set', 'archive', 'restore'].includes(command)) {
    out(usage);
    return 2;
  }
  const handle = database ?? (await openDatabase({ databaseUrl: env.DATABASE_URL || null, dataDir: path.resolve(env.DATA_DIR ?? 'data') }));
  try {
    await migrate(handle.db);
    if (command === 'list') {
      for (const plan of await listPlans(handle.db, { includeArchived: true })) {
        const p = planAsInput(plan);
        const prices = p.prices.map((x) => `${(x.amount / 100).toFixed(2)} ${x.currency}/${x.interval}`).join(', ') || 'free';
        out(`${p.id}\tv${p.version} level ${p.level} tier ${p.tier}\t${p.name}${p.archived ? ' (archived)' : ''}\t${prices}\t${JSON.stringify(p.limits)}`);
      }
      return 0;
    }
    if (!arg) {
      out(usage);
      return 2;
    }
    if (command === 'set') {
      const text = arg === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(arg, 'utf8');
      const saved = await savePlan(handle.db, JSON.parse(text));
      out(`saved plan ${saved.id}`);
      return 0;
    }
    const plan = await getPlan(handle.db, arg);
    if (!plan) {
      out(`no plan ${arg}`);
      return 1;
    }
    if (command === 'show') {
      out(JSON.stringify(planAsInput(plan), null, 2));
      return 0;
    }
    await savePlan(handle.db, { ...planAsInput(plan), archived: command === 'archive' });
    out(`${command === 'archive' ? 'archived' : 'restored'} plan ${plan.id}`);
    return 0;
  } catch (error) {
    if (error instanceof ZodError) {
      for (const issue of error.issues) out(`${issue.path.join('.') || 'plan'}: ${issue.message}`);
      return 1;
    }
    if (error instanceof SyntaxError) {
      out(`not valid JSON: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    if (!database) await handle.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.dirname ?? '', 'cli.ts')) {
  runPlansCli(process.argv.slice(2), process.env, (line) => console.log(line)).then((code) => process.exit(code));
}
