import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript, which jest.config.js reads too
const { serverTestBatches, testRoot } = require('../../test-batches') as {
  serverTestBatches(): { batches: string[][] };
  testRoot: string;
};

/**
 * Runs the test files of the batch this file is named for (`batch-N.test.ts`), each inside a describe named by its
 * path: its top-level hooks stay its own, and what jest keeps for a whole file (fake timers, spies) is undone after
 * it, as between two files.
 */
export function runBatchNamedBy(batchFile: string): void {
  const number = Number(/^batch-(\d+)\.test\.ts$/.exec(path.basename(batchFile))?.[1]);
  const files = serverTestBatches().batches[number - 1];
  if (!files?.length) throw new Error(`${path.basename(batchFile)}: no such batch, or it has no files`);
  for (const file of files) {
    describe(file, () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a test file is loaded for its describes
      require(path.join(testRoot, file));
      // After the file's own hooks, as jest's end of a file would be.
      afterAll(() => {
        jest.useRealTimers();
        jest.restoreAllMocks();
      });
    });
  }
}
