/**
 * What a failing test reports, so a failure seen once (in CI, on a busy machine) can be reproduced:
 * the run's seed, the inputs the test noted, what it was waiting for when it stopped, and the last
 * log lines of the servers and processes it started. tests/helpers/failure-report.ts (a vitest
 * setup file) prints it for a failed test only; a passing test prints nothing.
 */
import crypto from 'node:crypto';

/**
 * The seed of this run: TEST_SEED replays one. Tests that draw random inputs derive them from it
 * (`testSeed()`), and the failure report names it.
 */
const SEED = Number(process.env.TEST_SEED) || crypto.randomInt(1, 2 ** 31 - 1);
export const testSeed = () => SEED;

/** A small deterministic generator from the run's seed (mulberry32), for random test inputs. */
export function seededRandom(seed = SEED): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The last `max` lines written to it (a server's log, a child's output). */
export class LineBuffer {
  private lines: string[] = [];
  private partial = '';
  constructor(private readonly max = 200) {}
  write(chunk: string | Buffer): void {
    const text = this.partial + chunk.toString();
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    this.lines.push(...parts);
    if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
  }
  last(n = this.max): string[] {
    return [...this.lines, ...(this.partial ? [this.partial] : [])].slice(-n);
  }
}

/** Anything that can give its last lines: a LineBuffer, a child process's kept output. */
export interface LastLines {
  last(n: number): string[];
}

interface LogSource {
  name: string;
  buffer: LastLines;
}

const inputs = new Map<string, string>();
const waits: string[] = [];
const sources = new Set<LogSource>();

/** Notes an input of the current test (shown if it fails). Cleared before each test. */
export function noteInput(name: string, value: unknown): void {
  inputs.set(name, typeof value === 'string' ? value : JSON.stringify(value));
}

/** Registers the log of a server or process this file started; returns its removal. */
export function addLogSource(name: string, buffer: LastLines): () => void {
  const source = { name, buffer };
  sources.add(source);
  return () => sources.delete(source);
}

/**
 * Runs `work`, recording `what` as what the test waits for while it runs: a test that times out
 * (the limit of vitest) reports the last thing it was waiting for. With `timeoutMs`, gives up
 * itself first with an error naming `what` and the last lines of `log` (a child's output): use a
 * limit below the test's, so the report is this message and not a bare "timed out".
 */
export async function waitingFor<T>(what: string, work: Promise<T> | (() => Promise<T>), opts: { timeoutMs?: number; log?: LastLines } = {}): Promise<T> {
  waits.push(what);
  let timer: NodeJS.Timeout | undefined;
  try {
    const running = typeof work === 'function' ? work() : work;
    if (!opts.timeoutMs) return await running;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const tail = opts.log ? `\nlast lines of its output:\n${opts.log.last(30).join('\n')}` : '';
        reject(new Error(`gave up after ${Math.round(opts.timeoutMs! / 1000)} s waiting for ${what}${tail}`));
      }, opts.timeoutMs);
    });
    return await Promise.race([running, limit]);
  } finally {
    clearTimeout(timer);
    const at = waits.lastIndexOf(what);
    if (at >= 0) waits.splice(at, 1);
  }
}

/** Clears what the previous test noted (log sources stay: a file's server lives across its tests). */
export function resetTrail(): void {
  inputs.clear();
  waits.length = 0;
}

/** The report of a failed test. */
export function failureReport(test: { name: string; file?: string }): string {
  const out = [`--- failure report: ${test.name}`];
  out.push(`seed: TEST_SEED=${SEED}${test.file ? ` (rerun: TEST_SEED=${SEED} npx vitest run ${test.file} -t ${JSON.stringify(test.name)})` : ''}`);
  if (waits.length) out.push(`waiting for: ${waits.join(' > ')}`);
  for (const [name, value] of inputs) out.push(`input ${name}: ${value.length > 2000 ? `${value.slice(0, 2000)}…` : value}`);
  for (const source of sources) {
    const lines = source.buffer.last(40);
    out.push(lines.length ? `last ${lines.length} log lines of ${source.name}:\n${lines.join('\n')}` : `${source.name}: no log lines`);
  }
  return out.join('\n');
}
