import type { FastifyBaseLogger } from 'fastify';
import { Scheduler } from '../../src/lib/scheduler';
import { fakeOnly } from '../support/fake-clock';

const log = { error: jest.fn() } as unknown as FastifyBaseLogger & { error: jest.Mock };

/** A job whose runs are counted, each held open until released. */
function heldJob() {
  const runs: (() => void)[] = [];
  return {
    work: () => new Promise<void>((resolve) => runs.push(resolve)),
    started: () => runs.length,
    release: () => runs.forEach((resolve) => resolve()),
  };
}

describe('the background job loop', () => {
  let scheduler: Scheduler;

  beforeEach(() => {
    fakeOnly(['Date', 'setTimeout', 'clearTimeout']);
    log.error.mockReset();
    scheduler = new Scheduler(log);
  });

  afterEach(async () => {
    await scheduler.close();
    jest.useRealTimers();
  });

  it('runs a job first after its delay from start, then at its interval', async () => {
    const work = jest.fn(async () => undefined);
    scheduler.add('retention', { everyMs: 1_000, firstAfterMs: 5_000 }, work);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(work).not.toHaveBeenCalled();
    scheduler.start();
    await jest.advanceTimersByTimeAsync(4_999);
    expect(work).toHaveBeenCalledTimes(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(work).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(3_000);
    expect(work).toHaveBeenCalledTimes(4);
  });

  it('never runs a job twice at once; asked during a run, it runs once more right after', async () => {
    const job = heldJob();
    scheduler.add('outbox', { everyMs: 1_000 }, job.work);
    scheduler.start();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(job.started()).toBe(1);
    scheduler.runSoon('outbox');
    scheduler.runSoon('outbox');
    await jest.advanceTimersByTimeAsync(5_000);
    expect(job.started()).toBe(1);
    job.release();
    await jest.advanceTimersByTimeAsync(0);
    expect(job.started()).toBe(2);
    job.release();
  });

  it('a job asked for before start runs at start, not after its delay', async () => {
    const work = jest.fn(async () => undefined);
    scheduler.add('outbox', { everyMs: 1_000, firstAfterMs: 5_000 }, work);
    scheduler.runSoon('outbox');
    await jest.advanceTimersByTimeAsync(10_000);
    expect(work).not.toHaveBeenCalled();
    scheduler.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('keeps two jobs apart: one held open does not stop the other', async () => {
    const held = heldJob();
    const other = jest.fn(async () => undefined);
    scheduler.add('renewals', { everyMs: 1_000 }, held.work);
    scheduler.add('retention', { everyMs: 1_000 }, other);
    scheduler.start();
    await jest.advanceTimersByTimeAsync(2_500);
    expect(held.started()).toBe(1);
    expect(other).toHaveBeenCalledTimes(3);
    held.release();
  });

  it('logs a failing job and keeps its schedule', async () => {
    const work = jest.fn(async () => {
      throw new Error('the provider is down');
    });
    scheduler.add('renewals', { everyMs: 1_000 }, work);
    scheduler.start();
    await jest.advanceTimersByTimeAsync(1_500);
    expect(work).toHaveBeenCalledTimes(2);
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ job: 'renewals' }), 'A background job failed');
  });

  it('an interval of Infinity runs at start and when asked, never by itself', async () => {
    const work = jest.fn(async () => undefined);
    scheduler.add('outbox', { everyMs: Infinity }, work);
    scheduler.start();
    await jest.advanceTimersByTimeAsync(60 * 60 * 1000);
    expect(work).toHaveBeenCalledTimes(1);
    scheduler.runSoon('outbox');
    await jest.advanceTimersByTimeAsync(0);
    expect(work).toHaveBeenCalledTimes(2);
  });

  it('close waits for the run under way, and nothing runs after it', async () => {
    const job = heldJob();
    const closing: boolean[] = [];
    scheduler.add('renewals', { everyMs: 1_000 }, async (context) => {
      await job.work();
      closing.push(context.closing());
    });
    scheduler.start();
    await jest.advanceTimersByTimeAsync(0);
    let closed = false;
    const close = scheduler.close().then(() => (closed = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(closed).toBe(false);
    job.release();
    await close;
    expect(closing).toEqual([true]);
    scheduler.runSoon('renewals');
    await jest.advanceTimersByTimeAsync(10_000);
    expect(job.started()).toBe(1);
  });
});
