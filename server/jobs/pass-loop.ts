import type { EnqueueOptions, JobHandler, JobInfo, JobQueue } from './types';

/**
 * What both job queues share (server/jobs/runner.ts on PGlite, pgboss-queue.ts on PostgreSQL):
 * a pass = the event consumers' batch (extraPass) then one batch of jobs; `drain` runs passes
 * until one finds nothing due; `start` polls (woken at once by `kick`).
 */
export abstract class PassLoop implements JobQueue {
  /** Work besides jobs done on every pass (the event consumers); whether it did any. */
  extraPass: (() => Promise<boolean>) | undefined;
  /** Set by createJobs: creates the event consumers' cursors. */
  prepare: () => Promise<void> = async () => {};
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private wake: (() => void) | null = null;

  constructor(
    private readonly pollMs: number,
    private readonly onError?: (error: unknown) => void,
  ) {}

  abstract register<P>(name: string, handler: JobHandler<P>): void;
  abstract enqueue(name: string, payload: unknown, opts?: EnqueueOptions): Promise<void>;
  abstract inspect(name: string): Promise<JobInfo[]>;
  /** Runs one batch of due jobs; how many ran. */
  protected abstract runJobs(): Promise<number>;

  kick(): void {
    this.wake?.();
  }

  async runOnce(): Promise<boolean> {
    const extra = this.extraPass ? await this.extraPass() : false;
    const ran = await this.runJobs();
    return extra || ran > 0;
  }

  async drain(): Promise<void> {
    while (await this.runOnce()) {
      /* again */
    }
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.running = this.loop();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      let busy = false;
      try {
        busy = await this.runOnce();
      } catch (error) {
        // A pass that failed (database away, a consumer's bug outside its handler): say so, go on.
        if (this.onError) this.onError(error);
        else console.error('job runner pass failed:', error);
      }
      if (busy || this.stopped) continue;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.timer = setTimeout(resolve, this.pollMs);
      });
      this.wake = null;
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
    }
  }

  /** Stops polling and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.kick();
    await this.running;
    this.running = null;
  }
}
