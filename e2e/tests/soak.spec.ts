import { expect } from '../support/fixtures';
import { withOwnKabari } from '../support/own-server';
import { residentMegabytes, serverProcessOf } from '../support/process-memory';
import { runSoakLoop } from '../support/soak-loop';

// The short version of the soak run (the bench runs it for 30 minutes, `npm run bench -- --only soak`): the whole
// loop, from sign-up to Stop and erase, two families a second for 8 seconds on one production server. Every loop
// ends well, every position reaches its requester's live stream, and the server logs no error. Each family calls
// from addresses of its own (X-Forwarded-For, believed from this machine), so the per-address limits hold as they
// would for real families.
const test = withOwnKabari({ TRUST_PROXY: '127.0.0.1' });

test('the whole loop at a steady rate: nothing fails, nothing is lost', async ({ ownKabari }) => {
  test.setTimeout(60_000);
  const serverPid = serverProcessOf(ownKabari.pid);
  const result = await runSoakLoop({
    baseURL: ownKabari.url,
    seconds: 8,
    loopsPerSecond: 2,
    windowSeconds: 4,
    sample: async (): Promise<Record<string, number>> => {
      const megabytes = serverPid === null ? null : residentMegabytes(serverPid);
      return megabytes === null ? {} : { residentMegabytes: megabytes };
    },
  });
  for (const window of result.windows) {
    test.info().annotations.push({
      type: `window ${window.index}`,
      description: JSON.stringify({
        loops: window.loopsCompleted,
        requests: window.requests,
        p99Ms: window.latencyMs.p99,
        eventP99Ms: window.eventLatencyMs.p99,
        ...window.sample,
      }),
    });
  }
  const failures = result.windows.flatMap((window) => window.failureExamples);
  expect(failures, 'no loop failed').toEqual([]);
  expect(result.loopsStarted).toBe(16);
  expect(result.loopsCompleted).toBe(16);
  expect(result.positionsSeen).toBe(result.positionsSent);
  expect(result.positionsSent).toBe(48);
  // Every line at level error (50) or fatal (60) is a fault, whatever its message.
  expect(ownKabari.output().match(/^\{"level":(50|60),.*$/gm) ?? []).toEqual([]);
  await expect.poll(async () => (await fetch(`${ownKabari.url}/readyz`)).status).toBe(200);
});
