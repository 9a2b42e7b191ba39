import fastJsonStringify from 'fast-json-stringify';
import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../src/lib/envelope';
import { responseSerializerCompiler } from '../../src/lib/response-serializer';

// The real fast-json-stringify, counted: how many writers were built.
jest.mock('fast-json-stringify', () => {
  const actual = jest.requireActual<typeof fastJsonStringify>('fast-json-stringify');
  return { __esModule: true, default: jest.fn(actual) };
});
const buildWriter = jest.mocked(fastJsonStringify);

function compile(schema: z.ZodType, options: { checkAnswers?: boolean } = {}) {
  return responseSerializerCompiler(options)({ schema, method: 'GET', url: '/example', httpStatus: '200' });
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

  it('writes every kind of nullable value as null or as the value, at every depth', () => {
    const write = compile(
      z.object({
        items: z.array(
          z.object({
            name: z.string().nullable(),
            count: z.number().int().nullable(),
            live: z.boolean().nullable(),
            state: z.enum(['open', 'shared']).nullable(),
            place: z.object({ city: z.string(), region: z.string().nullable() }).nullable(),
            tags: z.array(z.string()).nullable(),
          }),
        ),
      }),
    );
    const full = {
      name: 'Rina',
      count: 2,
      live: false,
      state: 'shared',
      place: { city: 'Bogor', region: null },
      tags: ['a'],
    };
    const empty = { name: null, count: null, live: null, state: null, place: null, tags: null };
    expect(JSON.parse(write({ items: [full, empty] }))).toEqual({ items: [full, empty] });
    // Zero, false and the empty string are values, not null.
    const falsy = { ...empty, name: '', count: 0, live: false, tags: [] };
    expect(JSON.parse(write({ items: [falsy] }))).toEqual({ items: [falsy] });
  });

  it('writes a described nullable object whose properties are nullable too, set and null', () => {
    const write = compile(
      z.object({
        whatsapp: z
          .object({ fallback: z.enum(['sms', 'limit']).nullable() })
          .nullable()
          .describe('Sent by WhatsApp'),
      }),
    );
    for (const whatsapp of [null, { fallback: null }, { fallback: 'sms' }]) {
      expect(JSON.parse(write({ whatsapp }))).toEqual({ whatsapp });
    }
  });

  it('drops a property the schema does not name inside a union or a nullable object too, as zod did', () => {
    const kind = z.union([
      z.object({ kind: z.literal('sms'), phone: z.string() }),
      z.object({ kind: z.literal('email'), email: z.string() }),
    ]);
    const write = compile(z.object({ sent: kind, position: z.object({ lat: z.number() }).nullable() }));
    const written = write({
      sent: { kind: 'email', email: 'ana@example.com', consentToken: 'tok' },
      position: { lat: -6.2, recipientIp: '203.0.113.9' },
    });
    expect(JSON.parse(written)).toEqual({ sent: { kind: 'email', email: 'ana@example.com' }, position: { lat: -6.2 } });
  });

  it('refuses to write an answer that lacks a required property', () => {
    expect(() => compile(account)({ email: 'ana@example.com', devices: [], state: 'active' })).toThrow(/phone/);
  });

  it('coerces a value of the wrong type in production, and fails it when answers are checked (the tests)', () => {
    const schema = z.object({ accuracy: z.number(), state: z.enum(['active', 'expired']) });
    const wrong = { accuracy: null, state: 'paused' };
    expect(JSON.parse(compile(schema)(wrong))).toEqual({ accuracy: 0, state: 'paused' });
    expect(() => compile(schema, { checkAnswers: true })(wrong)).toThrow(
      /The answer of GET \/example does not match its schema:[\s\S]*accuracy[\s\S]*state/,
    );
    expect(compile(schema, { checkAnswers: true })({ accuracy: 12, state: 'active', extra: 1 })).toBe(
      '{"accuracy":12,"state":"active"}',
    );
  });

  it('writes nothing for an answer without a body', () => {
    expect(compile(z.void())(undefined)).toBe('');
  });

  it('names the route whose schema JSON Schema cannot express, when the routes are compiled', () => {
    const transformed = z.object({ at: z.string().transform((value) => new Date(value)) });
    expect(() => compile(transformed)).toThrow('The response schema of GET /example cannot be written as JSON Schema');
  });

  it('builds a writer on its first answer, once per schema for every app (the tests: with the app)', () => {
    const schema = z.object({ plan: z.string() });
    buildWriter.mockClear();
    const first = compile(schema);
    const second = compile(schema);
    expect(buildWriter).not.toHaveBeenCalled();
    expect(first({ plan: 'monthly' })).toBe('{"plan":"monthly"}');
    expect(second({ plan: 'yearly' })).toBe('{"plan":"yearly"}');
    expect(first({ plan: 'weekly' })).toBe('{"plan":"weekly"}');
    expect(buildWriter).toHaveBeenCalledTimes(1);

    const checked = z.object({ renews: z.boolean() });
    compile(checked, { checkAnswers: true });
    expect(buildWriter).toHaveBeenCalledTimes(2);
    expect(compile(checked, { checkAnswers: true })({ renews: true })).toBe('{"renews":true}');
    expect(buildWriter).toHaveBeenCalledTimes(2);
  });

  it('is what a route answers through: a handler’s extra field does not reach the client', async () => {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(responseSerializerCompiler());
    app.get('/me', { schema: { response: { 200: envelope(z.object({ email: z.string() })) } } }, async () =>
      ok({ email: 'ana@example.com', passwordHash: 'scrypt$secret' } as { email: string }),
    );
    const response = await app.inject({ method: 'GET', url: '/me' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 200, message: 'ok', data: { email: 'ana@example.com' } });
    await app.close();
  });
});
