import fs from 'node:fs';
import path from 'node:path';
import { importOf, lint, type LintMessage } from './lint-samples';

// Up the server's layers (lib → db → messages, payments → domains → config → plugins → routes → web → app → server)
// is refused; down, and across one layer (a domain to another), is not.
const cases = [
  { name: 'a table imports a domain', filePath: 'server/src/db/schema/x.ts', from: '../../geo/place', refused: true },
  {
    name: 'the database imports a domain',
    filePath: 'server/src/db/x.ts',
    from: '../live/live-event-hub',
    refused: true,
  },
  { name: 'a helper imports a domain', filePath: 'server/src/lib/x.ts', from: '../auth/throttle', refused: true },
  {
    name: 'a message provider imports a domain',
    filePath: 'server/src/messages/x.ts',
    from: '../requests/requests-config',
    refused: true,
  },
  {
    name: 'a payment provider imports billing',
    filePath: 'server/src/payments/x.ts',
    from: '../billing/money',
    refused: true,
  },
  {
    name: 'a domain imports a plugin',
    filePath: 'server/src/billing/x.ts',
    from: '../plugins/message-outbox',
    refused: true,
  },
  { name: 'a domain imports the configuration', filePath: 'server/src/auth/x.ts', from: '../config', refused: true },
  {
    name: 'a domain imports a route',
    filePath: 'server/src/live/x.ts',
    from: '../routes/map-views/routes',
    refused: true,
  },
  {
    name: 'a plugin imports a route',
    filePath: 'server/src/plugins/x.ts',
    from: '../routes/share/routes',
    refused: true,
  },
  {
    name: 'a route file imports the web layer',
    filePath: 'server/src/routes/runtime-config/routes.ts',
    from: '../../web/cache-policy',
    refused: true,
  },
  {
    name: 'a route module imports the app',
    filePath: 'server/src/routes/share/x.ts',
    from: '../../app',
    refused: true,
  },
  {
    name: 'the configuration imports a plugin',
    filePath: 'server/src/config.ts',
    from: './plugins/auth',
    refused: true,
  },
  { name: 'the app imports the server', filePath: 'server/src/app.ts', from: './server', refused: true },
  { name: 'a table imports another table', filePath: 'server/src/db/schema/x.ts', from: './accounts', refused: false },
  {
    name: 'a table imports a column value',
    filePath: 'server/src/db/schema/x.ts',
    from: '../column-values',
    refused: false,
  },
  { name: 'a domain imports a helper', filePath: 'server/src/requests/x.ts', from: '../lib/messages', refused: false },
  {
    name: 'a domain imports the database',
    filePath: 'server/src/voice/x.ts',
    from: '../db/open-database',
    refused: false,
  },
  {
    name: 'a domain imports a provider',
    filePath: 'server/src/billing/x.ts',
    from: '../payments/processor',
    refused: false,
  },
  {
    name: 'a domain imports another domain',
    filePath: 'server/src/requests/x.ts',
    from: '../voice/voice-notes',
    refused: false,
  },
  {
    name: 'the configuration reads a domain',
    filePath: 'server/src/config.ts',
    from: './billing/billing-config',
    refused: false,
  },
  {
    name: 'a plugin imports the configuration',
    filePath: 'server/src/plugins/x.ts',
    from: '../config',
    refused: false,
  },
  {
    name: 'a route file calls a domain',
    filePath: 'server/src/routes/requests/routes.ts',
    from: '../../requests/create-request',
    refused: false,
  },
  {
    name: 'a route module imports its own folder',
    filePath: 'server/src/routes/share/x.ts',
    from: './schemas',
    refused: false,
  },
  {
    name: 'the web layer imports a route',
    filePath: 'server/src/web/x.ts',
    from: '../routes/share/schemas',
    refused: false,
  },
  { name: 'the app imports a plugin', filePath: 'server/src/app.ts', from: './plugins/auth', refused: false },
  { name: 'the server imports the app', filePath: 'server/src/server.ts', from: './app', refused: false },
];

// Every folder and file of server/src has its place in the order: from any of them but the top, importing the top
// (server.ts) is refused. A folder left out of the order would be held to nothing. The top holds the two programs
// (server.ts, and operator-cli.ts, the operator command), which may import anything.
const programs = ['server.ts', 'operator-cli.ts'];
const serverSource = path.join(__dirname, '../../server/src');
const placed = fs
  .readdirSync(serverSource, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() || (entry.name.endsWith('.ts') && !programs.includes(entry.name)))
  .map((entry) =>
    entry.isDirectory()
      ? { name: `${entry.name}/`, filePath: `server/src/${entry.name}/x.ts`, from: '../server' }
      : { name: entry.name, filePath: `server/src/${entry.name}`, from: './server' },
  );

const layerErrors = (messages: LintMessage[] | undefined) =>
  (messages ?? []).filter(
    (message) => message.ruleId === 'no-restricted-imports' && message.message.includes("The server's layers"),
  );

describe("the server's layers", () => {
  let results: LintMessage[][];
  // One ESLint start for every case: loading the configuration is most of the cost.
  beforeAll(() => {
    results = lint([...cases, ...placed].map(({ filePath, from }) => ({ filePath, code: importOf(from) })));
  }, 60_000);

  it.each(cases.map((item, index) => ({ ...item, index })))('$name: refused $refused', ({ index, refused }) => {
    expect(layerErrors(results[index]).length > 0).toBe(refused);
  });

  it('places every folder and file of server/src in the order', () => {
    const unplaced = placed.filter((_, index) => layerErrors(results[cases.length + index]).length === 0);
    expect(unplaced.map(({ name }) => name)).toEqual([]);
  });
});

// Queries live in *-rows.ts beside the rules that use them: from the providers up, any other file importing
// drizzle-orm or a table (its type too) is refused; a rows file is not, and is still held to the layers.
const queryCases = [
  { name: 'a rule file imports drizzle-orm', filePath: 'server/src/requests/x.ts', code: importOf('drizzle-orm') },
  {
    name: 'a rule file imports a table',
    filePath: 'server/src/auth/x.ts',
    code: importOf('../db/schema/accounts'),
  },
  {
    name: "a rule file imports a table's type",
    filePath: 'server/src/live/x.ts',
    code: "import type { thing } from '../db/schema/location-requests';\nexport type Used = thing;\n",
  },
  {
    name: 'a rule file imports a drizzle subpath',
    filePath: 'server/src/geo/x.ts',
    code: importOf('drizzle-orm/pg-core'),
  },
  { name: 'a provider imports drizzle-orm', filePath: 'server/src/messages/x.ts', code: importOf('drizzle-orm') },
  { name: 'a plugin imports drizzle-orm', filePath: 'server/src/plugins/x.ts', code: importOf('drizzle-orm') },
  {
    name: 'a route module imports a table',
    filePath: 'server/src/routes/share/x.ts',
    code: importOf('../../db/schema/accounts'),
  },
  { name: 'the web layer imports a table', filePath: 'server/src/web/x.ts', code: importOf('../db/schema/accounts') },
].map((item) => ({ ...item, refused: true }));
const rowsCases = [
  { name: 'a rows file imports drizzle-orm', filePath: 'server/src/requests/x-rows.ts', code: importOf('drizzle-orm') },
  {
    name: 'a rows file imports a table',
    filePath: 'server/src/requests/x-rows.ts',
    code: importOf('../db/schema/location-requests'),
  },
  { name: 'the database imports drizzle-orm', filePath: 'server/src/db/x.ts', code: importOf('drizzle-orm') },
  { name: 'a table imports drizzle-orm', filePath: 'server/src/db/schema/x.ts', code: importOf('drizzle-orm/pg-core') },
].map((item) => ({ ...item, refused: false }));

const queryErrors = (messages: LintMessage[] | undefined) =>
  (messages ?? []).filter(
    (message) => message.ruleId === 'no-restricted-imports' && message.message.includes('Queries live in *-rows.ts'),
  );

describe('queries live in *-rows.ts', () => {
  const samples = [...queryCases, ...rowsCases];
  let results: LintMessage[][];
  beforeAll(() => {
    results = lint([
      ...samples.map(({ filePath, code }) => ({ filePath, code })),
      { filePath: 'server/src/requests/x-rows.ts', code: importOf('../plugins/auth') },
    ]);
  }, 60_000);

  it.each(samples.map((item, index) => ({ ...item, index })))('$name: refused $refused', ({ index, refused }) => {
    expect(queryErrors(results[index]).length > 0).toBe(refused);
  });

  it('holds a rows file to the layers all the same', () => {
    expect(layerErrors(results[samples.length])).toHaveLength(1);
  });
});

// The domains are handed plain types, never Fastify's (its types count too); plugins and routes hold the HTTP.
const fastifyCases = [
  {
    name: "a domain imports Fastify's logger type",
    filePath: 'server/src/billing/x.ts',
    code: "import type { FastifyBaseLogger } from 'fastify';\nexport type Used = FastifyBaseLogger;\n",
    refused: true,
  },
  {
    name: 'a rows file imports Fastify',
    filePath: 'server/src/requests/x-rows.ts',
    code: importOf('fastify'),
    refused: true,
  },
  {
    name: 'a domain imports a Fastify plugin',
    filePath: 'server/src/auth/x.ts',
    code: importOf('@fastify/cookie'),
    refused: true,
  },
  { name: 'a plugin imports Fastify', filePath: 'server/src/plugins/x.ts', code: importOf('fastify'), refused: false },
  {
    name: 'a route module imports Fastify',
    filePath: 'server/src/routes/share/x.ts',
    code: importOf('fastify'),
    refused: false,
  },
];

describe('the domains know no Fastify', () => {
  let results: LintMessage[][];
  beforeAll(() => {
    results = lint(fastifyCases.map(({ filePath, code }) => ({ filePath, code })));
  }, 60_000);

  it.each(fastifyCases.map((item, index) => ({ ...item, index })))('$name: refused $refused', ({ index, refused }) => {
    const fastifyErrors = (results[index] ?? []).filter(
      (message) => message.ruleId === 'no-restricted-imports' && message.message.includes('A domain knows no Fastify'),
    );
    expect(fastifyErrors.length > 0).toBe(refused);
  });
});
