import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const repoRoot = path.resolve(__dirname, '../..');

describe("the server's production build (scripts/lib/build-server.mjs)", () => {
  // Inside the repository, so that the built modules find their dependencies in its node_modules.
  const output = path.join(repoRoot, '.tmp', `server-build-test-${process.pid}`);

  afterAll(() => {
    fs.rmSync(output, { recursive: true, force: true });
  });

  it('writes the place index, which the built geocoder reads without indexing the places again', () => {
    const buildScript = pathToFileURL(path.join(repoRoot, 'scripts/lib/build-server.mjs')).href;
    execFileSync(process.execPath, [
      '--input-type=module',
      '-e',
      `import { buildServer } from ${JSON.stringify(buildScript)};
       await buildServer(${JSON.stringify(repoRoot)}, ${JSON.stringify(output)});`,
    ]);
    expect(fs.existsSync(path.join(output, 'server.js'))).toBe(true);
    expect(fs.existsSync(path.join(output, 'geo/places.bin'))).toBe(true);

    // In a process of its own, as the production server runs it (Node's require of the compiled module).
    const answer = execFileSync(process.execPath, [
      '-e',
      `const { openPlaceIndex } = require(${JSON.stringify(path.join(output, 'geo/place-index.js'))});
       const warnings = [];
       const indexAgain = () => { throw new Error('the places were indexed again'); };
       openPlaceIndex({ warn: (_, message) => warnings.push(message) }, undefined, indexAgain).then((index) =>
         console.log(JSON.stringify({ place: index.nearest(-6.1754, 106.8272), warnings })));`,
    ]).toString();
    expect(JSON.parse(answer)).toEqual({
      place: { name: 'Jakarta', countryCode: 'ID', distanceKm: null },
      warnings: [],
    });
  });
});
