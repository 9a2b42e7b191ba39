// Lint zones: shared → remotes → host is one way. A remote never imports another remote or the
// host; shared imports no app. Each app reaches a store only through @kabari/shared.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { createRequire } from 'node:module';

const { antdEntryPoints } = createRequire(import.meta.url)('./webpack/shared-dependencies.js');

const apps = ['host', 'remote-search', 'remote-dashboard', 'remote-billing', 'remote-share'];

const forbid = (names) =>
  names.flatMap((name) => [
    {
      group: [`**/${name}/**`, `../${name}`, `../../${name}`],
      message: `Do not import ${name}: apps meet only through routes and @kabari/shared.`,
    },
    { group: [`@kabari/${name}`, `@kabari/${name}/**`], message: `Do not import ${name}.` },
  ]);

// Libraries reached only through a thin re-export in shared (see shared/src/routing/router.ts).
const thinReexports = [
  { name: 'react-router-dom', message: 'Import from @kabari/shared/routing/router.' },
  { name: 'react-router', message: 'Import from @kabari/shared/routing/router.' },
];

// antd is shared per entry point (webpack/shared-dependencies.js): an entry point missing from that list is
// bundled into the remote with its own copy of antd's config context, and the host's theme stops at it.
const antdOutsideTheSharedList = {
  // Locale data (antd/es/locale/*) holds no context and may be bundled per app.
  regex: `^antd(?:$|/lib/|/es/(?!(?:${antdEntryPoints.join('|')})$|locale/))`,
  message: 'Import antd per entry point (antd/es/<name>) and list the entry point in webpack/shared-dependencies.js.',
};

const zone = (files, names) => ({
  files,
  ignores: ['shared/src/routing/router.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [...forbid(names), antdOutsideTheSharedList], paths: thinReexports },
    ],
  },
});

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'coverage/**',
      'server/drizzle/**',
      'e2e/test-results/**',
      'bench/**',
      '.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-console': 'off' },
  },
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['server/**', 'e2e/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'server/**', 'e2e/**', 'scripts/**'],
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: { 'no-console': 'off' },
  },
  {
    // Playwright fixtures take `{}` and call `use`: neither is React.
    files: ['e2e/**'],
    rules: { 'no-empty-pattern': 'off', 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    files: ['jest/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser, ...globals.jest } },
  },
  zone(['shared/**'], [...apps, 'server']),
  zone(
    ['remote-search/**'],
    apps.filter((app) => app !== 'remote-search'),
  ),
  zone(
    ['remote-dashboard/**'],
    apps.filter((app) => app !== 'remote-dashboard'),
  ),
  zone(
    ['remote-billing/**'],
    apps.filter((app) => app !== 'remote-billing'),
  ),
  zone(
    ['remote-share/**'],
    apps.filter((app) => app !== 'remote-share'),
  ),
  zone(
    ['host/**'],
    apps.filter((app) => app !== 'host'),
  ),
  zone(['server/**'], apps),
);
