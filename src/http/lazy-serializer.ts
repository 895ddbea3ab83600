import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type Serialize = (data: unknown) => string;
/** What Fastify's `schemaController.compilersFactory.buildSerializer` option takes. */
type SerializerFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
>;

// Fastify's own response-serializer factory (fast-json-stringify), resolved from Fastify itself:
// the same compiler, the same options and shared schemas, so the same bytes.
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
const defaultFactory = (
  fromFastify('@fastify/fast-json-stringify-compiler') as { SerializerSelector: () => SerializerFactory }
).SerializerSelector;

/**
 * Fastify compiles a serializer for every response schema of every route when the server starts;
 * most routes of a deployment are never called, and each compiled serializer keeps its generated
 * source and code resident. This factory hands Fastify the default compiler wrapped so that each
 * serializer is compiled on the first answer that uses it (synchronously, from the same schema and
 * the same shared schemas). Each compile gets its own copy of the options: the default compiler
 * drops a schema's own `$id` from the shared set it was given, which would otherwise make one
 * route's result depend on which routes happened to be compiled before it.
 */
export function lazySerializerFactory(): SerializerFactory {
  const build = defaultFactory();
  return (externalSchemas, options) => (route) => {
    let serialize: Serialize | null = null;
    return (data: unknown) => (serialize ??= build(externalSchemas, options)(route))(data);
  };
}
