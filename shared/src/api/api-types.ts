// The API's shapes, read from the types generated from the server's OpenAPI document (api-schema.generated.ts):
// one contract, written once as the routes' zod schemas. Name a shape after the route that returns it, e.g.
// `type NumberLookup = ApiData<'/api/v1/numbers/lookup', 'get'>`. The API client (api-client.ts) types every call
// by its path with these.
import type { components, paths } from './api-schema.generated';

export type ApiPath = keyof paths;
/** A shape the document names though no route answers it, e.g. `ApiSchema<'RecipientPageData'>`: as the server sends it. */
export type ApiSchema<N extends keyof components['schemas']> = components['schemas'][N];
export type ApiMethodName = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** The paths that answer a method. */
export type ApiPathWith<M extends ApiMethodName> = {
  [P in ApiPath]: paths[P][M] extends undefined ? never : P;
}[ApiPath];
/** The methods a path answers. */
export type ApiMethod<P extends ApiPath> = {
  [M in ApiMethodName]: paths[P][M] extends undefined ? never : M;
}[ApiMethodName];

type Operation<P extends ApiPath, M extends ApiMethod<P>> = NonNullable<paths[P][M]>;
type JsonContent<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
/** A body of raw bytes (an upload: the document lists it as a binary string), sent as a Blob; else the JSON body. */
type BodyContent<T> = T extends { content: { 'application/octet-stream': string } } ? Blob : JsonContent<T>;

/** The envelope's `data` of the route's success answer (200). */
export type ApiData<P extends ApiPath, M extends ApiMethod<P>> =
  JsonContent<Operation<P, M> extends { responses: { 200: infer Success } } ? Success : never> extends {
    data: infer Data;
  }
    ? Data
    : never;

/** The route's body: its JSON, or a Blob for an upload. */
export type ApiBody<P extends ApiPath, M extends ApiMethod<P>> = BodyContent<
  NonNullable<Operation<P, M> extends { requestBody?: infer Body } ? Body : never>
>;

/** The route's query string parameters. */
export type ApiQuery<P extends ApiPath, M extends ApiMethod<P>> = NonNullable<
  Operation<P, M> extends { parameters: { query?: infer Query } } ? Query : never
>;

/** The values of the path's `{name}` placeholders. */
export type ApiPathParams<P extends ApiPath, M extends ApiMethod<P>> = NonNullable<
  Operation<P, M> extends { parameters: { path?: infer Params } } ? Params : never
>;
