// A CPU hog for `npm run test:stress` (scripts/test-all.mjs --stress): busy processes that spin
// until stopped, so the suite runs on a machine as loaded as a shared CI runner. Each hog also
// watches its parent and ends when the parent is gone, so a killed test run leaves none behind.
import { spawn } from 'node:child_process';

const spin = `
const parent = Number(process.argv[1]);
setInterval(() => { try { process.kill(parent, 0); } catch { process.exit(0); } }, 1000).unref();
// Spin in slices so the parent check above still gets its turn.
const slice = () => { const end = Date.now() + 200; while (Date.now() < end); setImmediate(slice); };
slice();
`;

/** Starts `count` busy processes; stop() ends them (also done when this process exits). */
export function startCpuHog(count = 2) {
  const children = Array.from({ length: count }, () => spawn(process.execPath, ['-e', spin, String(process.pid)], { stdio: 'ignore' }));
  const stop = () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      stop();
      process.exit(130);
    });
  }
  return { count, pids: children.map((c) => c.pid), stop };
}
