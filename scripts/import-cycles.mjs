// Part of `npm run lint`: no import circle, in the server or in the browser apps. A module and what it imports form
// a tree, so each can be read (and loaded) before the modules that use it. Type-only imports count too: a circle
// of types is still a knot between modules. dpdm reads the imports with the TypeScript compiler (about 2 s each).
import path from 'node:path';
import { parseCircular, parseDependencyTree } from 'dpdm';
import { repoRoot, webApps } from './lib/run.mjs';

const programs = [
  { tsconfig: 'server/tsconfig.json', files: ['server/src/**/*.ts', 'server/test/**/*.ts', 'rules/src/**/*.ts'] },
  {
    tsconfig: 'tsconfig.web.json',
    files: ['shared', ...webApps].map((folder) => `${folder}/src/**/*.{ts,tsx}`),
  },
];

let circles = 0;
for (const { tsconfig, files } of programs) {
  const tree = await parseDependencyTree(files, {
    cwd: repoRoot,
    context: repoRoot,
    tsconfig: path.join(repoRoot, tsconfig),
    transform: false,
    onProgress: () => undefined,
  });
  for (const circle of parseCircular(tree)) {
    circles += 1;
    console.error(`Import circle: ${[...circle, circle[0]].join(' → ')}`);
  }
}
if (circles > 0) {
  console.error(`✗ ${circles} import circle(s): move what both sides need into a module of its own.`);
  process.exit(1);
}
