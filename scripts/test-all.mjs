// The one test command (README, .ci/run): installs what is missing, runs every suite, and ends with
// one line `tests: N passed, N failed` summing them all.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root, run, ensureNodeModules, ensureChromium, startPostgres } from './setup-lib.mjs';

const resultsDir = path.join(root, '.cache', 'results');
fs.rmSync(resultsDir, { recursive: true, force: true });
fs.mkdirSync(resultsDir, { recursive: true });

ensureNodeModules();
const chromium = ensureChromium();

const suites = [];
const checks = [];
function vitest(name, args, env = {}) {
  const out = path.join(resultsDir, `${name}.json`);
  console.log(`\n=== ${name} ===`);
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  suites.push({ name, out, exit: r.status });
}

// Type errors count as a failed check, so a green line means the code also type-checks.
console.log('\n=== typecheck ===');
const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'], { cwd: root, stdio: 'inherit' });
checks.push({ name: 'typecheck', ok: tsc.status === 0 });

// The folder import rules of DESIGN.md §2 (decision 0103): a forbidden import is a failed check.
console.log('\n=== import rules ===');
const imports = spawnSync(process.execPath, [path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), 'schema', 'sync-worker', 'src', 'server', '--config', '.dependency-cruiser.cjs', '--ignore-known', '--output-type', 'err'], { cwd: root, stdio: 'inherit' });
checks.push({ name: 'import rules', ok: imports.status === 0 });

vitest('unit+engine+server (PGlite)', ['--config', 'vitest.config.ts']);

const pg = startPostgres();
if (pg) {
  try {
    vitest('server (PostgreSQL)', ['--config', 'vitest.config.ts', 'tests/server'], { TEST_DATABASE_URL: pg.url });
  } finally {
    pg.stop();
  }
} else {
  console.warn('! PostgreSQL not available: the server suites ran on PGlite only');
}

if (chromium) {
  run('npx vite build --logLevel warn');
  vitest('e2e (Chromium)', ['--config', 'vitest.e2e.config.ts'], { CHROMIUM_PATH: chromium });
} else {
  console.warn('! chromium not available: e2e suites not run');
  suites.push({ name: 'e2e', out: null, exit: 1, missing: true });
}

let passed = 0;
let failed = 0;
for (const suite of suites) {
  if (!suite.out || !fs.existsSync(suite.out)) {
    // A suite that could not run at all counts as one failure, never as silence.
    console.log(`${suite.name}: did not produce results`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(fs.readFileSync(suite.out, 'utf8'));
  // A file that failed outside its tests (a beforeAll, an import) reports its tests as skipped:
  // count each of them (at least one per file) as failed, never as silence.
  const brokenFiles = (report.testResults ?? [])
    .filter((f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'))
    .reduce((sum, f) => sum + Math.max(1, (f.assertionResults ?? []).length), 0);
  passed += report.numPassedTests;
  failed += report.numFailedTests + brokenFiles;
  console.log(`${suite.name}: ${report.numPassedTests} passed, ${report.numFailedTests + brokenFiles} failed`);
}
for (const check of checks) {
  if (check.ok) passed += 1;
  else failed += 1;
  console.log(`${check.name}: ${check.ok ? '1 passed, 0 failed' : '0 passed, 1 failed'}`);
}
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
