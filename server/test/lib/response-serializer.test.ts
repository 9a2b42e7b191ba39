import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../src/lib/envelope';
import { responseSerializerCompiler } from '../../src/lib/response-serializer';

function compile(schema: z.ZodType) {
  return responseSerializerCompiler({ schema, method: 'GET', url: '/example', httpStatus: '200' });
}

describe('responseSerializerCompiler', () => {
  const account = z.object({
    email: z.string(),
    phone: z.string().nullable(),
    devices: z.array(z.object({ name: z.string(), lastSeen: z.number().int() })),
    state: z.enum(['active', 'expired']),
  });

  it('writes only the properties the schema names, at every depth', () => {
    const written = compile(envelope(account))(
      ok({
        email: 'ana@example.com',
        phone: null,
        passwordHash: 'scrypt$secret',
        devices: [{ name: 'Pixel', lastSeen: 1700000000, sessionToken: 'tok' }],
        state: 'active',
      }),
    );
    expect(JSON.parse(written)).toEqual({
      status: 200,
      message: 'ok',
      data: {
        email: 'ana@example.com',
        phone: null,
        devices: [{ name: 'Pixel', lastSeen: 1700000000 }],
        state: 'active',
      },
    });
    expect(written).not.toContain('secret');
    expect(written).not.toContain('tok');
  });

  it('writes each branch of a union and a nullable value as it is', () => {
    const write = compile(z.object({ at: z.union([z.number(), z.string()]).nullable() }));
    expect(JSON.parse(write({ at: 3 }))).toEqual({ at: 3 });
    expect(JSON.parse(write({ at: 'later' }))).toEqual({ at: 'later' });
    expect(JSON.parse(write({ at: null }))).toEqual({ at: null });
  });

  it('refuses to write an answer that lacks a required property', () => {
    expect(() => compile(account)({ email: 'ana@example.com', devices: [], state: 'active' })).toThrow(/phone/);
  });

  it('writes nothing for an answer without a body', () => {
    expect(compile(z.void())(undefined)).toBe('');
  });

  it('names the route whose schema JSON Schema cannot express, when the routes are compiled', () => {
    const transformed = z.object({ at: z.string().transform((value) => new Date(value)) });
    expect(() => compile(transformed)).toThrow('The response schema of GET /example cannot be written as JSON Schema');
  });

  it('is what a route answers through: a handler’s extra field does not reach the client', async () => {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(responseSerializerCompiler);
    app.get('/me', { schema: { response: { 200: envelope(z.object({ email: z.string() })) } } }, async () =>
      ok({ email: 'ana@example.com', passwordHash: 'scrypt$secret' } as { email: string }),
    );
    const response = await app.inject({ method: 'GET', url: '/me' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 200, message: 'ok', data: { email: 'ana@example.com' } });
    await app.close();
  });
});
