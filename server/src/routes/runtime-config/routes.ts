import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import { envelope, ok } from '../../lib/envelope';
import { isFresh, strongEtag } from '../../lib/etag';
import { WEB_REMOTES } from '../../lib/web-apps';
import { REVALIDATE } from '../../lib/cache-policy';

const runtimeConfigSchema = z.object({
  apiBaseUrl: z.string().describe('Prefix for API calls; empty means this origin'),
  appId: z.string().describe('Value for the application-id request header'),
  remotes: z
    .object(Object.fromEntries(WEB_REMOTES.map((remote) => [remote.name, z.string()])))
    .describe('Remote name → mf-manifest.json URL'),
  map: z
    .object({ tileUrl: z.string(), tileAttribution: z.string() })
    .describe("The requester's map: Leaflet tile URL template (TILE_URL) and its attribution HTML (TILE_ATTRIBUTION)"),
});

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

export function runtimeConfigOf(config: Config): RuntimeConfig {
  return { apiBaseUrl: '', appId: config.appId, remotes: { ...config.remotes }, map: { ...config.map } };
}

/** Read by the host at run time to find its remotes: a remote is redeployed or moved without rebuilding the host. */
const runtimeConfigRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const body = ok(runtimeConfigOf(options.config));
  const etag = strongEtag(JSON.stringify(body));

  app.get(
    '/runtime-config.json',
    {
      schema: {
        tags: ['web'],
        summary: 'Runtime configuration of the web app (never cached without revalidation)',
        response: {
          200: envelope(runtimeConfigSchema),
          304: z.void().describe('Not modified: the cached copy is current'),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', REVALIDATE).header('etag', etag);
      if (isFresh(request, etag)) return reply.code(304).send();
      return body;
    },
  );
};

export default runtimeConfigRoutes;
