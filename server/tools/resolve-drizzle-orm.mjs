// drizzle-kit sits in the root node_modules but drizzle-orm only in server/node_modules, so drizzle-kit's
// own `import('drizzle-orm/...')` cannot find it. This resolve hook looks drizzle-orm up from server/ instead.
// Usage (from server/, NODE_PATH covers its require() calls):
//   NODE_PATH=node_modules node --import ./tools/resolve-drizzle-orm.mjs ../node_modules/drizzle-kit/bin.cjs generate
import { register } from 'node:module';

const serverUrl = new URL('../package.json', import.meta.url).href;

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      export async function resolve(specifier, context, next) {
        if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) {
          return next(specifier, { ...context, parentURL: ${JSON.stringify(serverUrl)} });
        }
        return next(specifier, context);
      }
    `),
);
