// `tsc --noEmit` for every workspace, two at a time.
import { bin, inPool, nodeBin, run } from './lib/run.mjs';

const projects = [
  'shared',
  'host',
  'remote-search',
  'remote-dashboard',
  'remote-billing',
  'remote-share',
  'server',
  'e2e',
];
const failed = [];
await inPool(projects, 2, async (project) => {
  const code = await run(nodeBin, [bin('typescript', 'bin/tsc'), '-p', `${project}/tsconfig.json`, '--noEmit']);
  if (code !== 0) failed.push(project);
});
if (failed.length) {
  console.error(`✗ type errors in: ${failed.join(', ')}`);
  process.exit(1);
}
console.log(`✓ types check in ${projects.length} workspaces`);
