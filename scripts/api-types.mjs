// `npm run api:types`: writes shared/src/api/api-schema.generated.ts anew from the OpenAPI document the server
// publishes. The same jest test checks it in `npm test` and fails on drift.
import { bin, nodeBin, runOrExit } from './lib/run.mjs';

await runOrExit('api types', nodeBin, [bin('jest', 'bin/jest.js'), 'server/test/api-types.test.ts'], {
  env: { ...process.env, UPDATE_API_TYPES: '1' },
});
