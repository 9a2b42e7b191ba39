// Lint zones: shared → remotes → host is one way. A remote never imports another remote or the
// host; shared imports no app. Each app reaches a store only through @kabari/shared. The browser (shared and the
// apps) never imports the server, and the server never imports browser code: they meet only through the API, whose
// types the browser reads from the generated contract (shared/src/api/api-schema.generated.ts), and through the
// rules both apply (rules/, @kabari/rules), which import neither.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { antdEntryPoints } = require('./webpack/shared-dependencies.js');
const { webApps: apps } = require('./apps.js');

const whyNot = {
  server: 'The browser never imports the server: they meet through the API (its types: @kabari/shared/api/api-types).',
  shared: 'The server never imports browser code: they meet through the API, whose types the browser generates.',
  rules: 'The rules run in the server and in the browser: they import neither (only small pure libraries).',
};
const forbid = (names) =>
  names.flatMap((name) => [
    {
      group: [`**/${name}/**`, `../${name}`, `../../${name}`],
      message: whyNot[name] ?? `Do not import ${name}: apps meet only through routes and @kabari/shared.`,
    },
    { group: [`@kabari/${name}`, `@kabari/${name}/**`], message: whyNot[name] ?? `Do not import ${name}.` },
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

const zone = (files, names, layerPatterns = [], ignores = []) => ({
  files,
  ignores: ['shared/src/routing/router.ts', ...ignores],
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [...forbid(names), antdOutsideTheSharedList, ...layerPatterns], paths: thinReexports },
    ],
  },
});

// The server's layers, from the bottom up; a module of server/src imports from its own layer and those below it,
// never from one above (docs/architecture.md, "The server's layers"):
//   lib and i18n   helpers that know no domain, and the texts
//   db             the connection, the tables and the values their columns hold
//   providers      messages and payments: the outside services a rule sends or charges through
//   domains        the rules and their queries; a domain may import another (scripts/import-cycles.mjs forbids a
//                  circle)
//   config         the environment, read into each domain's own settings
//   plugins        what the Fastify server holds open (database, outbox, live events, sessions, …)
//   routes         HTTP: schemas and handlers
//   web            the pages and files the server serves
//   app, server    registering everything, listening
// A name is a folder of server/src or one of its files (config.ts, app.ts, server.ts). A new folder goes in a layer,
// or the test of these layers (scripts/test/server-layers.test.ts) fails.
const serverLayers = [
  ['lib', 'i18n'],
  ['db'],
  ['messages', 'payments'],
  [
    'auth',
    'accounts',
    'requests',
    'sharing',
    'billing',
    'voice',
    'live',
    'geo',
    'push',
    'retention',
    'visitors',
    'operators',
    'safety-desk',
  ],
  ['config'],
  ['plugins'],
  ['routes'],
  ['web'],
  ['app'],
  ['server', 'operator-cli'],
];
const routesLayer = serverLayers.findIndex((names) => names.includes('routes'));
const layerOrder = serverLayers.map((names) => names.join(', ')).join(' → ');
// How deep below server/src a file sits: 0 for config.ts, 1 for db/x.ts, 2 for db/schema/x.ts, …
const serverDepths = [0, 1, 2, 3];
const filesAt = (name, depth) =>
  depth === 0 ? [`server/src/${name}.ts`] : [`server/src/${name}/${'*/'.repeat(depth - 1)}*.ts`];
/** The imports a file `depth` folders below server/src may not make: any layer above `layer`. */
const aboveLayer = (layer, depth) => {
  const above = serverLayers.slice(layer + 1).flat();
  if (above.length === 0) return [];
  const up = depth === 0 ? '\\./' : `(?:\\.\\./){${depth}}`;
  return [
    {
      regex: `^${up}(?:${above.join('|')})(?:\\.ts)?(?:/|$)`,
      message: `The server's layers go one way (${layerOrder}): import nothing from a layer above this one; move what both need down.`,
    },
  ];
};
// From the providers up (messages, payments, the domains, config, plugins, routes, web), a file holds no query: the
// queries live in *-rows.ts beside the rules that use them, and only those import drizzle-orm or the tables (their
// types too: a rule reads a row's type from its rows file).
const noQueriesHere = 'Queries live in *-rows.ts beside the rules that use them: no drizzle-orm or db/schema here.';
const queryImports = [
  { regex: '^drizzle-orm(?:/|$)', message: noQueriesHere },
  { regex: '(?:^|/)db/schema(?:/|$)', message: noQueriesHere },
];
const queryFreeLayers = [
  serverLayers.findIndex((names) => names.includes('messages')),
  serverLayers.findIndex((names) => names.includes('web')),
];
// The domains are handed plain types (lib/logger.ts's Logger, small interfaces of what they use), never Fastify's:
// the server's HTTP stays in plugins and routes. Type imports count too.
const domainsLayer = serverLayers.findIndex((names) => names.includes('billing'));
const fastifyImports = [
  {
    regex: '^(?:fastify(?:$|/|-)|@fastify/)',
    message: 'A domain knows no Fastify: take the plain types it uses (Logger from lib/logger.ts, a small interface).',
  },
];
const layerPatterns = (layer, depth) => [
  ...aboveLayer(layer, depth),
  ...(layer === domainsLayer ? fastifyImports : []),
];
const serverLayerZones = () =>
  serverLayers.flatMap((names, layer) =>
    serverDepths.flatMap((depth) => {
      const files = names.flatMap((name) => filesAt(name, depth));
      const layerZone = zone(files, [...apps, 'shared'], layerPatterns(layer, depth));
      if (layer < queryFreeLayers[0] || layer > queryFreeLayers[1]) return [layerZone];
      // The same zone again with the query imports, over every file but the rows files (the later zone wins).
      return [
        layerZone,
        zone(
          files,
          [...apps, 'shared'],
          [...layerPatterns(layer, depth), ...queryImports],
          ['server/src/**/*-rows.ts'],
        ),
      ];
    }),
  );

const noSqlInRoutes = 'No SQL in a route file: queries in the domain folder’s *-rows.ts, rules beside them.';
const routeFileLayer = [
  { group: ['drizzle-orm', 'drizzle-orm/*'], message: noSqlInRoutes },
  { regex: '/db/schema(?:/|$)', message: noSqlInRoutes },
];

// Inside an app (each remote and the host), bulletproof-react layers: src/app (the pages that compose features) → src/features/<feature> →
// the app's shared folders (src/components, src/lib, src/stores, src/i18n). A feature never imports another feature
// or src/app: what two features need moves down to a shared folder (or to @kabari/shared when two apps need it).
const anotherFeature = (allowed = []) => ({
  regex: `^\\.\\./(?!\\.\\.(?:/|$)${allowed.map((name) => `|${name}/`).join('')})`,
  message:
    'A feature imports no other feature: move what both need to src/components, src/lib or src/stores (or compose them in src/app).',
});
const appLayer = {
  regex: '^(?:\\.\\./)+app(?:/|$)',
  message: 'Only src/app composes features; nothing imports it back.',
};
const aboveSharedFolders = {
  regex: '^\\.\\./(?:features|app)(?:/|$)',
  message: 'src/components, src/lib and src/stores serve the features and import none of them (nor src/app).',
};
// Apps whose features are held to the rule: every app (the host's cross-cutting modules are layered the same way).
const layeredApps = apps;
// new-search still composes message-request and link-generator until they move into it (its owner's change).
const composingFeatures = { 'remote-dashboard': { 'new-search': ['message-request', 'link-generator'] } };

const remoteZones = (app) => {
  const names = [...apps.filter((other) => other !== app), 'server'];
  if (!layeredApps.includes(app)) return [zone([`${app}/**`], names)];
  const composing = Object.entries(composingFeatures[app] ?? {});
  return [
    zone([`${app}/**`], names),
    zone(
      [`${app}/src/features/*/*`],
      names,
      [anotherFeature(), appLayer],
      composing.map(([feature]) => `${app}/src/features/${feature}/*`),
    ),
    ...composing.map(([feature, allowed]) =>
      zone([`${app}/src/features/${feature}/*`], names, [anotherFeature(allowed), appLayer]),
    ),
    zone([`${app}/src/{components,lib,stores,i18n}/*`], names, [aboveSharedFolders]),
  ];
};

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
  {
    // The host's service worker: a plain script the browser runs as a worker, not a module of the build.
    files: ['host/static/sw.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.serviceworker } },
  },
  zone(['shared/**'], [...apps, 'server']),
  {
    files: ['rules/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@kabari/*', ...['server', 'shared', ...apps].flatMap((name) => [`**/${name}/**`, `../${name}`])],
              message: whyNot.rules,
            },
          ],
        },
      ],
    },
  },
  ...apps.flatMap(remoteZones),
  zone(['server/**'], [...apps, 'shared']),
  ...serverLayerZones(),
  // A resource's route file is HTTP only (schema, session, call the domain, answer): its rules and their queries live
  // in a domain folder (the queries in *-rows.ts beside the rules), so they are found by the domain's name.
  zone(['server/src/routes/*/routes.ts'], [...apps, 'shared'], [...routeFileLayer, ...aboveLayer(routesLayer, 2)]),
);
