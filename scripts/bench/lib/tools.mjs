// The bench's measuring tools (Lighthouse CI with its own Lighthouse, autocannon) are a package of their own beside
// the bench, scripts/bench/package.json with its lockfile. Neither running nor testing Kabari needs them, and they are
// about 250 MB that every `npm install`, CI's included, would otherwise unpack. The bench installs
// them at their locked versions on its first run, and again whenever the lockfile changes.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const toolsDir = path.resolve(import.meta.dirname, '..');
const lockFile = path.join(toolsDir, 'package-lock.json');
/** The lockfile's hash as of the last install. */
const installedMark = path.join(toolsDir, 'node_modules', '.kabari-installed-lock');

/** Installs the bench's tools unless the installed ones match the lockfile. */
export function ensureBenchTools(/** @type {(message: string) => void} */ log) {
  const lockHash = () => createHash('sha256').update(fs.readFileSync(lockFile)).digest('hex');
  if (fs.existsSync(installedMark) && fs.readFileSync(installedMark, 'utf8') === lockHash()) return;
  log('installing the bench tools (Lighthouse CI, autocannon) from scripts/bench/package-lock.json…');
  // Under `npm run`, the npm that runs us; else the one on the PATH.
  const [command, args] = process.env.npm_execpath
    ? [process.execPath, [process.env.npm_execpath]]
    : [process.platform === 'win32' ? 'npm.cmd' : 'npm', []];
  // `npm install`, which keeps the locked versions, rather than `npm ci`: a package in Lighthouse's tree depends on
  // another's "latest" tag, and `npm ci` refuses the lockfile whenever that package publishes a new version.
  execFileSync(command, [...args, 'install', '--no-audit', '--no-fund'], {
    cwd: toolsDir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // The lockfile as npm left it (it may have filled in what it lacked).
  fs.writeFileSync(installedMark, lockHash());
}
