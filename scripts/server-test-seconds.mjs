// Writes server/test/batches/test-seconds.json: how long each server test file's tests took, from the jest report
// `npm test` leaves in .tmp/jest-server.json (or the report named). server/test-batches.js balances the batches
// with it; run this after a whole `npm test` when the batches have drifted apart.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './lib/run.mjs';

const report = path.resolve(process.argv[2] ?? path.join(repoRoot, '.tmp/jest-server.json'));
const { testResults } = JSON.parse(fs.readFileSync(report, 'utf8'));
const testRoot = path.join(repoRoot, 'server/test');
const seconds = {};
for (const result of testResults) {
  const batched = /[\\/]batches[\\/]batch-\d+\.test\.ts$/.test(result.testFilePath ?? result.name);
  for (const assertion of result.assertionResults) {
    // In a batch, each file's tests run inside a describe named by its path; a file run alone is its own result.
    // (The report may come from another checkout: the path is read from server/test/ on.)
    const file = batched
      ? assertion.ancestorTitles[0]
      : /[\\/]server[\\/]test[\\/](.+)$/
          .exec(result.testFilePath ?? result.name)?.[1]
          .split(path.sep)
          .join('/');
    if (!file) continue;
    seconds[file] = (seconds[file] ?? 0) + (assertion.duration ?? 0) / 1000;
  }
}
const sorted = Object.fromEntries(
  Object.keys(seconds)
    .sort()
    .map((file) => [file, Math.round(seconds[file] * 10) / 10]),
);
const target = path.join(testRoot, 'batches/test-seconds.json');
fs.writeFileSync(target, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(
  `${path.relative(repoRoot, target)}: ${Object.keys(sorted).length} files, from ${path.relative(repoRoot, report)}`,
);
