// The server's tests run in a few batches in `npm test`: jest loads every module afresh for each test file, and the
// server's files load the same app (Fastify, zod, Drizzle, PGlite) over and over. One module registry per batch
// instead of one per file takes about a fifth less CPU for them (docs/reliability.md). Each file still runs on its
// own as usual (`npx jest server/test/...`); in a batch it runs inside a describe named by its path, with its own
// top-level hooks, and fake timers and spies undone after it (test/batches/run-batch.ts).
const fs = require('node:fs');
const path = require('node:path');

const testRoot = path.join(__dirname, 'test');
const batchFile = /^batch-(\d+)\.test\.ts$/;

/** Every test file under `root` but the batches themselves, sorted. */
function serverTestFiles(root) {
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => path.dirname(file) !== path.join(root, 'batches'))
    .sort();
}

/**
 * A file that replaces a module for its own tests (`jest.mock`) would replace it for the whole batch, from wherever
 * it was loaded on: such a file runs apart, in its own registry.
 */
function replacesModules(file) {
  return /\bjest\.(mock|doMock|unstable_mockModule)\(/.test(fs.readFileSync(file, 'utf8'));
}

/** The number of batches: one per `batches/batch-N.test.ts`, numbered from 1. */
function batchCount(dir) {
  const numbers = fs
    .readdirSync(dir)
    .map((name) => batchFile.exec(name)?.[1])
    .filter(Boolean)
    .map(Number)
    .sort((a, b) => a - b);
  numbers.forEach((number, index) => {
    if (number !== index + 1) throw new Error(`${dir}: batch-${index + 1}.test.ts is missing`);
  });
  return numbers.length;
}

// What a file costs its batch, in seconds, apart from its tests' own time: loading and building what its tests use
// (an app on a fresh database for each describe, mostly), which grows with the file. Measured over a whole run: 188 s
// of a batch's time outside its tests for 1,021 KB of test files.
const SETUP_SECONDS_PER_BYTE = 0.18 / 1024;
// A file not yet measured: the whole run's tests took 315 s for those 1,021 KB.
const TEST_SECONDS_PER_BYTE = 0.31 / 1024;

/**
 * How long each file's tests took in a measured run (`batches/test-seconds.json`, written by
 * `node scripts/server-test-seconds.mjs` from the report `npm test` leaves in .tmp/jest-server.json). Sizes alone
 * put the files that wait on timers of their own (the outbox's retries, an export's deadline, a lock's expiry) in
 * one batch, which then took half as long again as the next.
 */
function measuredSeconds(root) {
  const file = path.join(root, 'batches', 'test-seconds.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
}

/**
 * Which test files under `root` run in which batch (paths relative to `root`) and which apart. Balanced by expected
 * time (its tests' measured time, or its size for a file not yet measured, plus what its size costs in setup), the
 * longest file first into the lightest batch, so that the batches take about as long and two workers finish
 * together; ties go by path, so the same files always make the same batches.
 */
function serverTestBatches(root = testRoot) {
  const files = serverTestFiles(root);
  const apart = files.filter(replacesModules);
  const measured = measuredSeconds(root);
  const batches = Array.from({ length: batchCount(path.join(root, 'batches')) }, () => ({ seconds: 0, files: [] }));
  const timed = files
    .filter((file) => !apart.includes(file))
    .map((file) => {
      const relative = path.relative(root, file).split(path.sep).join('/');
      const bytes = fs.statSync(file).size;
      const tests = measured[relative] ?? bytes * TEST_SECONDS_PER_BYTE;
      return { file, seconds: tests + bytes * SETUP_SECONDS_PER_BYTE };
    })
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
  for (const { file, seconds } of timed) {
    const lightest = batches.reduce((light, batch) => (batch.seconds < light.seconds ? batch : light));
    lightest.seconds += seconds;
    lightest.files.push(path.relative(root, file));
  }
  return {
    batches: batches.map((batch) => batch.files.sort()),
    apart: apart.map((file) => path.relative(root, file)),
  };
}

/** The test files (relative to `root`) that the batch file `batch-N.test.ts` runs. */
function testFilesOfBatch(batchFilePath, root = testRoot) {
  const number = Number(batchFile.exec(path.basename(batchFilePath))?.[1]);
  const files = serverTestBatches(root).batches[number - 1];
  if (!files?.length) throw new Error(`${path.basename(batchFilePath)}: no such batch, or it has no files`);
  return files;
}

module.exports = { serverTestBatches, testFilesOfBatch, testRoot };
