// `npm run dev`: the API server and every app with watch. The host is at http://localhost:3000;
// each remote also runs standalone on its own port (3001-3004) for QA. The one entry point that turns development
// on (NODE_ENV=development); everything listens on 127.0.0.1 only.
import path from 'node:path';
import concurrently from 'concurrently';
import apps from '../apps.js';
import { bin, nodeBin, repoRoot } from './lib/run.mjs';

const remoteUrls = Object.fromEntries(
  apps.remotes.map(({ name, port }) => [
    `REMOTE_${name.toUpperCase()}_URL`,
    `http://127.0.0.1:${port}/mf-manifest.json`,
  ]),
);
const webpack = (app) => ({
  name: app,
  command: `"${nodeBin}" "${bin('webpack-cli', 'bin/cli.js')}" serve --mode development`,
  cwd: path.join(repoRoot, app),
});
// The server through tsc in watch mode, which reports type errors as files change (the production build compiles
// with swc, scripts/lib/build-server.mjs).
const tsc = `"${nodeBin}" "${bin('typescript', 'bin/tsc')}"`;
const writePlaceIndex = "require('./server/dist/geo/place-index.js').writePlaceIndex()";

const { result } = concurrently(
  [
    { name: 'server:tsc', command: `${tsc} -w --preserveWatchOutput -p server/tsconfig.build.json` },
    {
      name: 'server',
      // Waits for the first compile and writes the bundled places' index as the production build does, then
      // restarts on every change of the compiled output.
      command: `${tsc} -p server/tsconfig.build.json && "${nodeBin}" -e "${writePlaceIndex}" && "${nodeBin}" --watch server/dist/server.js`,
      env: { NODE_ENV: 'development', ...remoteUrls },
    },
    ...apps.webApps.map(webpack),
  ],
  { cwd: repoRoot, prefix: 'name', killOthersOn: ['failure'] },
);
result.catch(() => process.exit(1));
