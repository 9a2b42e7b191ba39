import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** OpenAPI from the routes' zod schemas: the UI at /api/docs, the document at /api/docs/json. */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Kabari API',
          description: 'Every response is the envelope { status, message, data }; status mirrors the HTTP status.',
          version: '0.1.0',
        },
        components: {
          securitySchemes: {
            token: {
              type: 'apiKey',
              in: 'header',
              name: 'Authorization',
              description: 'The session token, raw or as "Bearer <token>"',
            },
            operatorSession: {
              type: 'apiKey',
              in: 'cookie',
              name: 'kabari_operator',
              description: "An operator's session (the console's routes; without it they answer 404)",
            },
          },
        },
      },
      transform: jsonSchemaTransform,
      // The zod schemas given an id (`.meta({ id })`) become named components, e.g. the recipient page's data,
      // which reaches the browser in the page rather than through a route.
      transformObject: jsonSchemaTransformObject,
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs' });
  },
  { name: 'swagger' },
);
