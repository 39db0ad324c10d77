/**
 * npm run replay -- <file> (--db <dir> | --url <url> [--token <token>] [--apply]) [--json] [--keep]
 *
 * Replays a "Download unsynced changes" file (issue #30 part 7, docs/testing.md "Replaying a
 * user's unsynced changes"): loads it into a replica on fake-indexeddb and says, for each edit,
 * whether it would land, merge, conflict (which field) or be refused, and why.
 *
 *   --db <dir>    a Cairn DATA_DIR (or its pglite folder): a server is started on a COPY of it and
 *                 the edits are sent to the copy by the worker's engine (the copy is then removed;
 *                 --keep leaves it and prints where). The folder given is never written.
 *   --url <url>   a running server; the token is --token or the CAIRN_TOKEN variable (an API token
 *                 or access token of the file's user). Read-only (GETs) unless --apply, which sends
 *                 the edits for real.
 *   --json        the whole report as JSON (predicted and applied verdicts).
 */
import fs from 'node:fs';
import { latestSchema } from '../sync-worker/db';
import { parseUnsyncedExport, UnsyncedFileError } from '../sync-worker/unsynced-export';
import { startServerOnCopy, type LocalServer } from './replay/local-server';
import { replayUnsynced, type ReplayReport } from './replay/run';
import { formatVerdict, type Verdict } from './replay/verdicts';

interface Args {
  file: string;
  db: string | null;
  url: string | null;
  token: string | null;
  apply: boolean;
  json: boolean;
  keep: boolean;
}

class UsageError extends Error {}

function parseArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): Args {
  const args: Args = { file: '', db: null, url: null, token: env.CAIRN_TOKEN || null, apply: false, json: false, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${a}: needs a value`);
      return v;
    };
    if (a === '--db') args.db = value();
    else if (a === '--url') args.url = value();
    else if (a === '--token') args.token = value();
    else if (a === '--apply') args.apply = true;
    else if (a === '--json') args.json = true;
    else if (a === '--keep') args.keep = true;
    else if (a.startsWith('--')) throw new UsageError(`${a}: unknown option`);
    else if (!args.file) args.file = a;
    else throw new UsageError(`${a}: only one file`);
  }
  if (!args.file) throw new UsageError('the file to replay is missing');
  if (!!args.db === !!args.url) throw new UsageError('give either --db <dir> (a copy of an embedded database) or --url <server>');
  if (args.url && !args.token) throw new UsageError('--url needs --token (or CAIRN_TOKEN)');
  if (args.db && args.apply) throw new UsageError('--apply writes to a server: with --db the edits always go to a copy (add --keep to keep it)');
  if (args.keep && !args.db) throw new UsageError('--keep is for --db');
  return args;
}

function summary(verdicts: Verdict[]): string {
  const counts = new Map<string, number>();
  for (const v of verdicts) counts.set(v.verdict, (counts.get(v.verdict) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${n} ${k}`).join(', ') || 'no edits';
}

function print(report: ReplayReport, where: string, sent: boolean) {
  const shown = report.applied ?? report.predicted;
  console.log(`${sent ? 'Sent to' : 'Read-only against'} ${where}: ${summary(shown)}`);
  for (const v of shown) console.log('  ' + formatVerdict(v));
  if (report.applied) {
    const predicted = new Map(report.predicted.map((p) => [`${p.source}:${p.collection}:${p.id}`, p]));
    for (const v of report.applied) {
      const p = predicted.get(`${v.source}:${v.collection}:${v.id}`);
      if (p && p.verdict !== v.verdict) console.log(`  note: ${v.collection} ${v.id} was predicted ${p.verdict} from the server's copies (${p.reason})`);
    }
    if (report.unsent) console.log(`  ${report.unsent} request(s) still queued after the replay`);
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const file = parseUnsyncedExport(fs.readFileSync(args.file, 'utf8'), latestSchema().version);
  if (!args.json) {
    console.log(`${args.file}: user ${file.user_id}, exported ${file.exported_at}, replica schema ${file.replica.schema_version} (${file.replica.schema_hash})`);
    console.log(`  ${file.queue.length} queued request(s), ${file.drafts.length} draft(s), ${file.conflicts.length} conflict(s), ${file.refused.length} refused edit(s)`);
    for (const c of file.conflicts) console.log(`  conflict kept: ${c.collection} ${c.id} ${c.field ?? 'record'}: mine ${JSON.stringify(c.mine)}, theirs ${JSON.stringify(c.theirs)}`);
  }
  let local: LocalServer | null = null;
  try {
    if (args.db) local = await startServerOnCopy(args.db, file.user_id, { keep: args.keep });
    const target = local ? { url: local.url, token: local.token } : { url: args.url!, token: args.token! };
    const report = await replayUnsynced(file, target, { apply: !!local || args.apply });
    if (args.json) console.log(JSON.stringify(report, null, 2));
    else print(report, local ? `a copy of ${args.db}` : args.url!, !!local || args.apply);
    if (local && args.keep) console.log(`The copy, with the edits applied, is at ${local.dataDir}`);
  } finally {
    await local?.close();
  }
}

main().catch((error) => {
  if (error instanceof UsageError || error instanceof UnsyncedFileError) {
    console.error(`replay: ${error.message}`);
    console.error('usage: npm run replay -- <file> (--db <dir> | --url <url> --token <token> [--apply]) [--json] [--keep]');
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
