// `npm run bench`: every benchmark in bench/, one after another (they share 2 cores), each printing
// its figures against DESIGN.md §8. Benchmarks never fail the run; a crash is reported and skipped.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { root, run, ensureNodeModules, ensureChromium } from './setup-lib.mjs';

ensureNodeModules();
const chromium = ensureChromium();
run('npx vite build --logLevel warn');

const benches = [
  ['server-saves.ts'],
  ['sync-engine.ts'],
  ['realtime-fanout.ts'],
  ['realtime-judged.ts'],
  ['jobs.ts'],
  // A 100,000 × 10 CSV import beside a second user's reads and saves (issue #31).
  ['heavy-jobs.ts'],
  // The change log's rows, size and /changes latency over many updates of 10,000 records (issue #31
  // part 6, decision 0351); 100,000 updates here, the 1,000,000 when run alone without arguments.
  ['change-log.ts', '100000'],
  ['notifications.ts'],
  // Authentication with a session, a personal access token and an OAuth token (decision 0145).
  ['api-tokens.ts'],
  // The scale-out shape as processes (hub, two API servers, PostgreSQL): saves, fan-out, catch-up (decision 0192).
  ['scale-out.ts'],
  ...(chromium ? [['sync-chromium.ts'], ['app-shell.ts'], ['board-open.ts'], ['board-stream.ts', '10000', '5'], ['board-stream.ts', '100000', '10']] : []),
];
for (const [file, ...args] of benches) {
  console.log(`\n=== bench/${file} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench', file), ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...(chromium ? { CHROMIUM_PATH: chromium } : {}) },
  });
  if (r.status !== 0) console.log(`(bench/${file} exited with ${r.status}; figures above may be partial)`);
}
