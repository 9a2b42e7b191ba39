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

/**
 * Which test files under `root` run in which batch (paths relative to `root`) and which apart. Balanced by size, the
 * largest file first into the lightest batch, so that the batches take about as long and two workers finish
 * together; ties go by path, so the same files always make the same batches.
 */
function serverTestBatches(root = testRoot) {
  const files = serverTestFiles(root);
  const apart = files.filter(replacesModules);
  const batches = Array.from({ length: batchCount(path.join(root, 'batches')) }, () => ({ bytes: 0, files: [] }));
  const sized = files
    .filter((file) => !apart.includes(file))
    .map((file) => ({ file, bytes: fs.statSync(file).size }))
    .sort((a, b) => b.bytes - a.bytes || a.file.localeCompare(b.file));
  for (const { file, bytes } of sized) {
    const lightest = batches.reduce((light, batch) => (batch.bytes < light.bytes ? batch : light));
    lightest.bytes += bytes;
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
