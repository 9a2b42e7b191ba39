// `npm run operator -- add EMAIL | list | disable EMAIL`: the operator command (server/src/operator-cli.ts), run
// from the server's build with the server's environment; the server is built first when it has no build yet.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { nodeBin, repoRoot, runOrExit } from './lib/run.mjs';

const cli = path.join(repoRoot, 'server/dist/operator-cli.js');
if (!fs.existsSync(cli)) {
  await runOrExit('build server', nodeBin, ['scripts/build.mjs', 'server']);
}

const child = spawn(nodeBin, [cli, ...process.argv.slice(2)], {
  cwd: repoRoot,
  stdio: 'inherit',
  // The server's own defaults (npm start runs it in production mode), so both open the same database.
  env: { NODE_ENV: 'production', ...process.env },
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
