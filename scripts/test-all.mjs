// The one test command (README, .ci/run): installs what is missing, runs every suite, and ends with
// one line `tests: N passed, N failed` summing them all.
//
// Two lanes overlap so the 2-core machine is never idle: in front, the app build and then the
// Chromium e2e suite (the longest); behind, one after another, the PGlite suite, the type check,
// the import rules and the PostgreSQL server suite. The lane behind runs at a lower CPU priority
// (nice 5), so the suite in front, whose timings matter (e2e), keeps its speed and the one behind
// soaks up what is left (e2e spends much of its time waiting on the browser and the network).
// Output of the lane behind goes to a log printed whole when each step ends, so the two never
// interleave.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root, ensureNodeModules, ensureChromium, startPostgres } from './setup-lib.mjs';
import { startCpuHog } from './cpu-hog.mjs';

// `--stress` (or TEST_STRESS=1; `npm run test:stress`): the whole run with a CPU hog beside it, two
// busy processes for its duration, as on a shared CI machine. A test that fails only then waits on
// time instead of state (docs/development.md, "Tests").
const stress = process.argv.includes('--stress') || process.env.TEST_STRESS === '1';

const resultsDir = path.join(root, '.cache', 'results');
fs.rmSync(resultsDir, { recursive: true, force: true });
fs.mkdirSync(resultsDir, { recursive: true });

const suites = [];
const checks = [];
const started = Date.now();
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;

/** Runs a command; in front its output streams, behind (lowered priority) it is printed when done. */
function exec(name, cmd, args, { env = {}, behind = false } = {}) {
  const log = path.join(resultsDir, `${name.replace(/\W+/g, '-')}.log`);
  const [bin, argv] = behind && process.platform !== 'win32' ? ['nice', ['-n', '5', cmd, ...args]] : [cmd, args];
  if (!behind) console.log(`\n=== ${name} (${elapsed()}) ===`);
  const out = behind ? fs.openSync(log, 'w') : 'inherit';
  const child = spawn(bin, argv, { cwd: root, stdio: ['ignore', out, out], env: { ...process.env, NO_COLOR: '1', ...env } });
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      if (behind) {
        fs.closeSync(out);
        console.log(`\n=== ${name} (ran behind; done at ${elapsed()}) ===`);
        process.stdout.write(fs.readFileSync(log, 'utf8'));
      } else console.log(`--- ${name} done at ${elapsed()}`);
      resolve(code ?? 1);
    });
    child.on('error', (error) => {
      console.log(`${name}: could not start: ${error.message}`);
      resolve(1);
    });
  });
}

async function vitest(name, args, opts = {}) {
  const out = path.join(resultsDir, `${name.replace(/\W+/g, '-')}.json`);
  const exit = await exec(name, process.execPath, [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], opts);
  suites.push({ name, out, exit });
}

async function check(name, args, opts) {
  const exit = await exec(name, process.execPath, args, opts);
  checks.push({ name, ok: exit === 0 });
}

ensureNodeModules();
const hog = stress ? startCpuHog(Number(process.env.TEST_STRESS_PROCESSES) || 2) : null;
if (hog) console.log(`stress: ${hog.count} busy processes beside the run (pids ${hog.pids.join(', ')})`);
const chromium = ensureChromium();
const pg = startPostgres();
if (!pg) console.warn('! PostgreSQL not available: the server suites run on PGlite only');

let built = false;
try {
  // The e2e suite is the longest and needs the built app: the build goes first, in front, and
  // then the e2e suite stays in front to the end. Everything else runs one after another in the
  // lane behind, starting at once: the PGlite suite, the type check, the import rules, then the
  // PostgreSQL suite (it needs no build).
  const behind = (async () => {
    await vitest('unit+engine+server (PGlite)', ['--config', 'vitest.config.ts'], { behind: true });
    // Type errors count as a failed check, so a green line means the code also type-checks.
    await check('typecheck', [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'], { behind: true });
    // The folder import rules of DESIGN.md §2 (decision 0103): a forbidden import is a failed check.
    await check('import rules', [path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), 'schema', 'sync-worker', 'src', 'server', '--config', '.dependency-cruiser.cjs', '--ignore-known', '--output-type', 'err'], { behind: true });
    // tests/scale starts the scale-out shape as real processes: a hub and two API servers (decision 0192).
    // Without PostgreSQL its suites did not run: one failure, never silence.
    if (pg) await vitest('server (PostgreSQL)', ['--config', 'vitest.config.ts', 'tests/server', 'tests/scale'], { env: { TEST_DATABASE_URL: pg.url }, behind: true });
    else suites.push({ name: 'server (PostgreSQL)', out: null, exit: 1 });
  })();
  const front = (async () => {
    if (chromium) built = (await exec('app build', process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'])) === 0;
    if (chromium && built) await vitest('e2e (Chromium)', ['--config', 'vitest.e2e.config.ts'], { env: { CHROMIUM_PATH: chromium } });
    else {
      suites.push({ name: 'e2e (Chromium)', out: null, exit: 1 });
      console.warn(`! e2e suites not run: ${chromium ? 'the app build failed' : 'chromium not available'}`);
    }
  })();
  await Promise.all([front, behind]);
} finally {
  pg?.stop();
  hog?.stop();
}

let passed = 0;
let failed = 0;
console.log('');
for (const suite of suites) {
  if (!suite.out || !fs.existsSync(suite.out)) {
    // A suite that could not run at all counts as one failure, never as silence.
    console.log(`${suite.name}: did not produce results`);
    failed += 1;
    continue;
  }
  let report;
  try {
    report = JSON.parse(fs.readFileSync(suite.out, 'utf8'));
  } catch (error) {
    console.log(`${suite.name}: its results could not be read (${error.message})`);
    failed += 1;
    continue;
  }
  // A file that failed outside its tests (a beforeAll, an import) reports its tests as skipped:
  // count each of them (at least one per file) as failed, never as silence.
  const brokenFiles = (report.testResults ?? [])
    .filter((f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'))
    .reduce((sum, f) => sum + Math.max(1, (f.assertionResults ?? []).length), 0);
  // Vitest exits non-zero for errors outside any test too (an unhandled rejection after a test ran):
  // with no failed test to show for it, that counts as one failure.
  const outside = suite.exit !== 0 && report.numFailedTests + brokenFiles === 0 ? 1 : 0;
  if (outside) console.log(`${suite.name}: exited with ${suite.exit} though no test failed (errors outside the tests: see its output)`);
  passed += report.numPassedTests;
  failed += report.numFailedTests + brokenFiles + outside;
  // Tests that passed only on a retry (the e2e suite retries, decision 0378): named, so the timing
  // fault behind each is seen and fixed. tests/helpers/failure-report.ts counts the failed attempts.
  const retried = (report.testResults ?? []).flatMap((f) =>
    (f.assertionResults ?? []).filter((a) => a.status === 'passed' && a.meta?.failedAttempts > 0).map((a) => `${path.relative(root, f.name)} > ${a.fullName} (${a.meta.failedAttempts} failed attempt${a.meta.failedAttempts > 1 ? 's' : ''})`),
  );
  console.log(`${suite.name}: ${report.numPassedTests} passed${retried.length ? ` (${retried.length} only on a retry)` : ''}, ${report.numFailedTests + brokenFiles + outside} failed`);
  for (const name of retried) console.log(`  passed on a retry: ${name}`);
}
for (const c of checks) {
  if (c.ok) passed += 1;
  else failed += 1;
  console.log(`${c.name}: ${c.ok ? '1 passed, 0 failed' : '0 passed, 1 failed'}`);
}
console.log(`total time ${elapsed()}${hog ? ` (under stress: ${hog.count} busy processes beside it)` : ''}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
