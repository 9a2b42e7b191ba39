// `npm start`: build everything, then serve the whole app in production mode. Without PUBLIC_URL it is a local
// trial on the embedded defaults (PGlite in ./data, the local outbox at the /dev/outbox address it prints with its
// token, the sandbox processor) at http://localhost:8080, listening on 127.0.0.1 only. With PUBLIC_URL it is a
// deployment (docs/deploy.md). KABARI_SKIP_BUILD=1 serves the existing dist folders.
import { spawn } from 'node:child_process';
import { nodeBin, repoRoot, runOrExit } from './lib/run.mjs';

if (process.env.KABARI_SKIP_BUILD !== '1') {
  await runOrExit('build', nodeBin, ['scripts/build.mjs']);
}

// Node's own flags given to this script (`node --max-old-space-size=512 scripts/start.mjs`) are the server's too.
const server = spawn(nodeBin, [...process.execArgv, 'server/dist/server.js'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
