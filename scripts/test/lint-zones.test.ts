import { importOf, lint, type LintMessage } from './lint-samples';

// One ESLint start for every case: loading the configuration is most of the cost.
const cases = [
  {
    name: 'a remote imports the server',
    filePath: 'remote-search/src/lib/x.ts',
    from: '../../../server/src/app',
    refused: true,
  },
  {
    name: 'the host imports the server',
    filePath: 'host/src/lib/x.ts',
    from: '../../../server/src/config',
    refused: true,
  },
  {
    name: 'shared imports the server',
    filePath: 'shared/src/api/x.ts',
    from: '../../../server/src/app',
    refused: true,
  },
  {
    name: 'the server imports shared',
    filePath: 'server/src/lib/x.ts',
    from: '@kabari/shared/api/api-client',
    refused: true,
  },
  {
    name: 'the server imports shared by path',
    filePath: 'server/src/lib/x.ts',
    from: '../../../shared/src/api/api-types',
    refused: true,
  },
  {
    name: 'a remote imports another remote',
    filePath: 'remote-search/src/lib/x.ts',
    from: '../../../remote-billing/src/lib/register-query',
    refused: true,
  },
  {
    name: 'a remote imports the host',
    filePath: 'remote-share/src/lib/x.ts',
    from: '@kabari/host/lib/route-table',
    refused: true,
  },
  {
    name: 'the host imports a remote',
    filePath: 'host/src/lib/x.ts',
    from: '../../../remote-share/src/lib/share-api',
    refused: true,
  },
  {
    name: 'shared imports an app',
    filePath: 'shared/src/api/x.ts',
    from: '../../../host/src/lib/route-table',
    refused: true,
  },
  {
    name: 'a remote imports shared',
    filePath: 'remote-search/src/lib/x.ts',
    from: '@kabari/shared/api/api-types',
    refused: false,
  },
  { name: 'the server imports its own code', filePath: 'server/src/plugins/x.ts', from: '../config', refused: false },
  {
    name: 'a route file queries the database itself',
    filePath: 'server/src/routes/share/routes.ts',
    from: 'drizzle-orm',
    refused: true,
  },
  {
    name: 'a route file imports a table',
    filePath: 'server/src/routes/share/routes.ts',
    from: '../../db/schema/location-requests',
    refused: true,
  },
  {
    name: 'a route file still may not import browser code',
    filePath: 'server/src/routes/share/routes.ts',
    from: '@kabari/shared/api/api-types',
    refused: true,
  },
  {
    name: 'a route file calls its service',
    filePath: 'server/src/routes/share/routes.ts',
    from: './service',
    refused: false,
  },
  {
    name: "a module of a route folder queries (queries live in a domain's *-rows.ts)",
    filePath: 'server/src/routes/share/data.ts',
    from: 'drizzle-orm',
    refused: true,
  },
  {
    name: 'the server applies a shared rule',
    filePath: 'server/src/lib/x.ts',
    from: '@kabari/rules/money',
    refused: false,
  },
  {
    name: 'shared applies a shared rule',
    filePath: 'shared/src/payments/x.ts',
    from: '@kabari/rules/money',
    refused: false,
  },
  {
    name: 'a remote applies a shared rule',
    filePath: 'remote-search/src/lib/x.ts',
    from: '@kabari/rules/money',
    refused: false,
  },
  { name: 'a rule imports the server', filePath: 'rules/src/x.ts', from: '../../server/src/config', refused: true },
  { name: 'a rule imports shared', filePath: 'rules/src/x.ts', from: '@kabari/shared/i18n/locale', refused: true },
  { name: 'a rule imports an app', filePath: 'rules/src/x.ts', from: '../../remote-search/src/lib/x', refused: true },
  { name: 'a rule imports a pure library', filePath: 'rules/src/x.ts', from: 'libphonenumber-js/min', refused: false },
];

describe('the lint zones', () => {
  let results: LintMessage[][];
  // One ESLint start: a few seconds, more on a busy machine.
  beforeAll(() => {
    results = lint(cases.map(({ filePath, from }) => ({ filePath, code: importOf(from) })));
  }, 60_000);

  it.each(cases.map((item, index) => ({ ...item, index })))('$name: refused $refused', ({ index, refused }) => {
    const zoneErrors = (results[index] ?? []).filter((message) => message.ruleId === 'no-restricted-imports');
    expect(zoneErrors.length > 0).toBe(refused);
  });
});
