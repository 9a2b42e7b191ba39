// Builds every remote, the host and the server for production.
// `node scripts/build.mjs remote-share` rebuilds one app alone (a remote is deployed independently).
import path from 'node:path';
import { bin, inPool, nodeBin, repoRoot, runOrExit, webApps } from './lib/run.mjs';
import { buildServer } from './lib/build-server.mjs';
import { precompressDir } from './lib/precompress.mjs';
import { prerenderApp } from './prerender.mjs';

const requested = process.argv.slice(2);
const apps = requested.length ? requested : [...webApps, 'server'];
const unknown = apps.filter((app) => app !== 'server' && !webApps.includes(app));
if (unknown.length) {
  console.error(`Unknown app(s): ${unknown.join(', ')}. Known: ${[...webApps, 'server'].join(', ')}`);
  process.exit(2);
}

const started = Date.now();
const web = apps.filter((app) => app !== 'server');
// Two apps at a time on the 2-core machines; one when something else runs beside the build (npm test).
await inPool(web, Number(process.env.BUILD_CONCURRENCY ?? 2), async (app) => {
  await runOrExit(`build ${app}`, nodeBin, [bin('webpack-cli', 'bin/cli.js'), '--mode', 'production'], {
    cwd: path.join(repoRoot, app),
  });
  const pages = await prerenderApp(app);
  const count = await precompressDir(path.join(repoRoot, app, 'dist'));
  console.log(`  ${app}: ${pages} pages prerendered, ${count} files precompressed`);
});
if (apps.includes('server')) {
  const serverStarted = Date.now();
  const files = await buildServer(repoRoot);
  console.log(`✓ build server: ${files} files (${((Date.now() - serverStarted) / 1000).toFixed(1)}s)`);
}
console.log(`Built ${apps.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
