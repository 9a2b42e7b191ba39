import type { FastifyBaseLogger } from 'fastify';

// The server's background work (message delivery, renewals and their reconciliation, retention) runs through this
// one loop: one timer, armed for the job due first. Each job's work claims its rows in the database (FOR UPDATE SKIP
// LOCKED, or row locks), so several instances may run the same jobs. The job queues made for PostgreSQL
// (pg-boss, graphile-worker) need a PostgreSQL server and its own tables; Kabari also runs on embedded PGlite, where
// they cannot, and its jobs are periodic passes over its own tables, not queued items, so this module is all it needs.

/** When a job runs: every `everyMs` (Infinity: only at start and when asked), the first time `firstAfterMs` after start (default: at once). */
export interface JobTiming {
  everyMs: number;
  firstAfterMs?: number;
}

/** What a running job may ask: whether the server is closing (a job of several passes stops between them). */
export interface JobContext {
  closing(): boolean;
}

interface Job {
  name: string;
  timing: JobTiming;
  work: (context: JobContext) => Promise<unknown>;
  nextAt: number;
  running?: Promise<void>;
  /** Asked for while it ran: it runs once more as soon as it ends. */
  again: boolean;
}

export class Scheduler {
  private readonly jobs = new Map<string, Job>();
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private closed = false;
  private readonly context: JobContext = { closing: () => this.closed };

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Adds a job (before or after start); its errors are logged, never thrown. */
  add(name: string, timing: JobTiming, work: (context: JobContext) => Promise<unknown>): void {
    if (this.jobs.has(name)) throw new Error(`a job named ${name} is already scheduled`);
    // Before start, the first run is counted at start.
    const nextAt = this.started ? this.now() + (timing.firstAfterMs ?? 0) : Infinity;
    this.jobs.set(name, { name, timing, work, nextAt, again: false });
    if (this.started) this.arm();
  }

  /** Runs a job as soon as possible: now, or once more right after the run under way. */
  runSoon(name: string): void {
    const job = this.jobs.get(name);
    if (!job || this.closed) return;
    if (job.running) job.again = true;
    // Asked before start: it runs at start.
    else job.nextAt = this.started ? this.now() : -Infinity;
    if (this.started) this.arm();
  }

  /** Starts the loop: each job's first run is counted from now. */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    const now = this.now();
    for (const job of this.jobs.values()) {
      job.nextAt = job.nextAt === -Infinity ? now : now + (job.timing.firstAfterMs ?? 0);
    }
    this.arm();
  }

  /** Stops the loop and waits for the runs under way: after this, no job touches the database. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await Promise.all([...this.jobs.values()].map((job) => job.running));
  }

  /** One timer, set for the job due first among those not running. */
  private arm(): void {
    clearTimeout(this.timer);
    if (this.closed) return;
    const waiting = [...this.jobs.values()].filter((job) => !job.running);
    if (waiting.length === 0) return;
    const due = Math.min(...waiting.map((job) => job.nextAt));
    if (!Number.isFinite(due)) return;
    this.timer = setTimeout(() => this.tick(), Math.max(0, due - this.now()));
    // Background work never keeps the process alive on its own.
    this.timer.unref();
  }

  private tick(): void {
    const now = this.now();
    for (const job of this.jobs.values()) if (!job.running && job.nextAt <= now) this.launch(job);
    this.arm();
  }

  private launch(job: Job): void {
    job.again = false;
    job.running = job
      .work(this.context)
      .then(
        () => undefined,
        (error: unknown) => this.log.error({ err: error, job: job.name }, 'A background job failed'),
      )
      .finally(() => {
        job.running = undefined;
        job.nextAt = job.again ? this.now() : this.now() + job.timing.everyMs;
        this.arm();
      });
  }
}
