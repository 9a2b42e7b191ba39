import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript, which jest.config.js reads too
const { testFilesOfBatch, testRoot } = require('../../test-batches') as {
  testFilesOfBatch(batchFile: string): string[];
  testRoot: string;
};

/**
 * Runs the test files of the batch this file is named for (`batch-N.test.ts`), each inside a describe named by its
 * path: its top-level hooks stay its own, and what jest keeps for a whole file (fake timers, spies) is undone after
 * it, as between two files.
 */
export function runBatchNamedBy(batchFile: string): void {
  for (const file of testFilesOfBatch(batchFile)) {
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
