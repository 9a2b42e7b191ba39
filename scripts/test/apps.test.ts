import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { host, remotes, webApps } from '../../apps';
import { WEB_REMOTES } from '../../server/src/lib/web-apps';

const repoRoot = path.resolve(__dirname, '../..');
const json = (file: string) => JSON.parse(readFileSync(path.join(repoRoot, file), 'utf8'));
// tsconfig files allow comments.
const jsonc = (file: string) =>
  JSON.parse(readFileSync(path.join(repoRoot, file), 'utf8').replace(/^\s*\/\/.*$/gm, '')) as { include: string[] };

describe('the list of apps (apps.js)', () => {
  it('names every web app folder, each with its webpack and jest configurations', () => {
    for (const folder of webApps) {
      expect(existsSync(path.join(repoRoot, folder, 'webpack.config.js'))).toBe(true);
      expect(existsSync(path.join(repoRoot, folder, 'jest.config.js'))).toBe(true);
    }
    expect(webApps).toEqual([...remotes.map((remote) => remote.folder), host.folder]);
  });

  it('is what the workspaces and the browser type check list, no more and no fewer', () => {
    const workspaces: string[] = json('package.json').workspaces;
    expect(workspaces.filter((folder) => folder === 'host' || folder.startsWith('remote-')).sort()).toEqual(
      [...webApps].sort(),
    );
    const checked = jsonc('tsconfig.web.json').include.filter(
      (folder) => folder.startsWith('host/') || folder.startsWith('remote-'),
    );
    expect(checked.sort()).toEqual(webApps.map((folder) => `${folder}/src`).sort());
  });

  it('gives each remote the name the server configures it by, and the container the host loads', () => {
    const names = readFileSync(path.join(repoRoot, 'shared/src/config/federation-names.ts'), 'utf8');
    for (const remote of remotes) {
      expect(remote.folder).toBe(`remote-${remote.name}`);
      // Built in from apps.js (webpack/create-config.js), not written again by hand.
      expect(names).not.toContain(`'${remote.federationName}'`);
      if ('lightFederationName' in remote) expect(names).not.toContain(`'${remote.lightFederationName}'`);
    }
    // The server reads the same list (REMOTE_<NAME>_URL, each remote's folder and default manifest).
    expect(WEB_REMOTES.map(({ name, folder, variable }) => ({ name, folder, variable }))).toEqual(
      remotes.map(({ name, folder }) => ({ name, folder, variable: `REMOTE_${name.toUpperCase()}_URL` })),
    );
  });
});
