import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

// Each route's JSON answers are written by fast-json-stringify (Fastify's own serializer), compiled once per response
// schema from the zod schema turned into JSON Schema. Only the properties the schema names are written, so a field a
// handler adds by mistake (a password hash, a token) never leaves, as with zod.
//
// What production no longer does is check our own answers value by value: that cost about a fifth of a small
// answer's CPU time (10–16 µs of a 50 µs `/healthz`). fast-json-stringify coerces a value of the wrong type instead
// of refusing it (null is written as "" or 0), so two things keep answers true to their schema instead: the type
// provider checks each handler's return type against the schema when the server is compiled, and every server test
// runs with `checkAnswers`, which fails any answer that does not match.
//
// A schema JSON Schema cannot express (a transform) fails when the routes are compiled, at start-up, not on the first
// request that meets it. The writers themselves are built on first use, except in the tests, which build them all.

/**
 * The schema without `additionalProperties: false`, which zod writes for every object of an output. Outside a union
 * fast-json-stringify ignores it (it writes the named properties only, either way); inside one (`anyOf`, which is
 * also how a nullable object is written) it validates each branch, and an object with one property more would match
 * no branch and fail the answer, where zod stripped the property. Without it, a union picks its first matching
 * branch and writes that branch's properties only, as zod's union did.
 */
function withExtraPropertiesAllowed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withExtraPropertiesAllowed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false) continue;
    copy[key] = withExtraPropertiesAllowed(value);
  }
  return copy;
}

/** `{ type: 'null' }`, the branch zod writes for `.nullable()`. */
function isNullType(schema: unknown): boolean {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    (schema as { type?: unknown }).type === 'null' &&
    Object.keys(schema).length === 1
  );
}

/**
 * The schema with each nullable value (`anyOf` of one typed schema and `{ type: 'null' }`, as zod writes
 * `.nullable()`) written as that schema with `nullable: true`: fast-json-stringify then writes null or the value by
 * a check of its own, where for a union it runs a validator over each branch (about twice the time per value, and a
 * list of requests has ten such values an item). The same answers either way; a union of other branches stays one.
 */
function withNullablesFolded(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withNullablesFolded);
  if (typeof schema !== 'object' || schema === null) return schema;
  const { anyOf: branches, ...rest } = schema as { anyOf?: unknown };
  const annotationsOnly = Object.keys(rest).every((key) => ANNOTATIONS.has(key));
  if (Array.isArray(branches) && branches.length === 2 && annotationsOnly) {
    const value = branches.find((branch) => !isNullType(branch)) as Record<string, unknown> | undefined;
    const typed =
      value &&
      branches.some(isNullType) &&
      typeof value.type === 'string' &&
      !('anyOf' in value || 'oneOf' in value || 'allOf' in value);
    if (typed) return { ...rest, ...(withNullablesFolded(value) as object), nullable: true };
  }
  // A union that stays one is checked branch by branch by fast-json-stringify's validator, which does not know
  // `nullable`: its branches are left as zod wrote them.
  if ('anyOf' in (schema as object) || 'oneOf' in (schema as object)) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = withNullablesFolded(value);
  return copy;
}

/** Keys beside a nullable value's union that say nothing about what is written. */
const ANNOTATIONS = new Set(['description', 'title']);

/** A response schema as JSON Schema, and its writer once built. */
interface CompiledSchema {
  jsonSchema: Record<string, unknown>;
  write?: (data: unknown) => string;
}

/**
 * Kept per schema for every app this process builds (the tests build hundreds). A server builds each writer on first
 * use: building them all took about 110 ms of CPU at each start-up, for answers most instances rarely give.
 */
const compiledSchemas = new WeakMap<z.ZodType, CompiledSchema>();

function compiledSchema(schema: z.ZodType, route: string): CompiledSchema {
  let compiled = compiledSchemas.get(schema);
  if (!compiled) {
    let jsonSchema: Record<string, unknown>;
    try {
      // draft-7: the dialect fast-json-stringify's own validator (for unions) reads by default.
      jsonSchema = z.toJSONSchema(schema, { io: 'output', target: 'draft-7' }) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`The response schema of ${route} cannot be written as JSON Schema`, { cause: error });
    }
    delete jsonSchema.$schema;
    compiled = { jsonSchema };
    compiledSchemas.set(schema, compiled);
  }
  return compiled;
}

function writerOf(compiled: CompiledSchema): (data: unknown) => string {
  return (compiled.write ??= fastJsonStringify(
    withNullablesFolded(withExtraPropertiesAllowed(compiled.jsonSchema)) as object,
  ));
}

/**
 * The serializer compiler. `checkAnswers` (the tests): each answer is also checked against its zod schema, value by
 * value, before it is written, and one that does not match fails the request, so that no answer the tests see can
 * drift from the contract.
 */
export function responseSerializerCompiler(
  options: { checkAnswers?: boolean } = {},
): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url }) => {
    // An answer without a body (304 Not Modified): there is nothing to write.
    if (schema instanceof z.ZodVoid) return () => '';
    const compiled = compiledSchema(schema, `${method} ${url}`);
    if (!options.checkAnswers) return (data: unknown) => writerOf(compiled)(data);
    // The tests build every writer with the app, so a schema fast-json-stringify cannot write fails them all.
    const write = writerOf(compiled);
    return (data: unknown) => {
      const checked = z.safeEncode(schema, data);
      if (!checked.success) {
        throw new Error(`The answer of ${method} ${url} does not match its schema: ${z.prettifyError(checked.error)}`);
      }
      return write(data);
    };
  };
}
