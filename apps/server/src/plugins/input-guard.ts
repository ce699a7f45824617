/**
 * The global input guard (RELIABILITY #21, #25, #39), checked once for every route before validation:
 *
 * - JSON bodies are parsed strictly (lib/strict-json): a key twice in one object, or a
 *   prototype-pollution key, is a 400 naming the key. An empty JSON body is no body.
 * - No body, an empty body and a JSON `null` body are all "no body" (`undefined`, see
 *   validatorCompilerWithAbsentBodies, which app.ts installs): a route whose body
 *   is optional accepts each of them, and a route whose body is required refuses each with its
 *   validation 400 (sign-out and the cookie refresh must work from a bare POST).
 * - PostgreSQL text and jsonb cannot hold the NUL character, and jsonb refuses a lone UTF-16
 *   surrogate: every string value and object key of the path parameters, query, JSON body and headers
 *   is checked, and either is a 400 naming the field (a bad key names its parent object). Raw uploads
 *   (Buffers) are bytes, not text, and are checked by their own parsers.
 *
 * Because this runs before any handler, a refused request reaches no venue, writes nothing and
 * publishes nothing.
 */
import { findBadText, type BadText } from '@dart/contracts';
import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../lib/errors';
import { JsonKeyError, parseStrictJson } from '../lib/strict-json';

/** JSON whitespace only (or nothing): the body is absent. */
const BLANK = /^[ \t\r\n]*$/;

/** The first bad string of a request's headers; a header is named by its (lower-case) name. */
export function findBadHeader(headers: Record<string, string | string[] | undefined>): BadText | null {
  for (const [name, value] of Object.entries(headers)) {
    const badName = findBadText(name);
    if (badName) return { path: 'headers', message: badName.message };
    const found = findBadText(value);
    if (found) return { path: name, message: found.message };
  }
  return null;
}

/**
 * The zod validator compiler, except that an absent body reaches a body schema as `undefined`: Fastify
 * hands a missing body to the validator as `null`, so a body declared `.optional()` (and documented
 * as optional) refused every bare POST with "expected object, received null". A JSON `null` body is
 * taken as absent too; a schema that wants a body still refuses all of them.
 */
export const validatorCompilerWithAbsentBodies: typeof validatorCompiler = (route) => {
  const validate = validatorCompiler(route);
  if (route.httpPart !== 'body') return validate;
  return (data) => validate(data === null ? undefined : data);
};

/**
 * @fastify/swagger marks every request body required; a body schema that accepts `undefined` (logout,
 * the cookie refresh, …) is documented as optional instead, which is what the server now does.
 */
export function documentAbsentBodies(transform: SwaggerTransform): {
  transform: SwaggerTransform;
  transformObject: SwaggerTransformObject;
} {
  const optional = new Set<string>();
  return {
    transform: (input) => {
      const body: unknown = input.schema?.body;
      if (body instanceof z.ZodType && body.safeParse(undefined).success)
        for (const method of [input.route.method].flat())
          optional.add(`${method.toLowerCase()} ${input.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
      return transform(input);
    },
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      for (const [path, item] of Object.entries(document.openapiObject.paths ?? {}))
        for (const [method, operation] of Object.entries(item ?? {})) {
          const requestBody = (operation as { requestBody?: { required?: boolean } } | undefined)?.requestBody;
          if (requestBody && optional.has(`${method} ${path}`)) requestBody.required = false;
        }
      return document.openapiObject;
    },
  };
}

export function registerInputGuard(app: FastifyInstance): void {
  // Replaces Fastify's JSON parser; the server's bodyLimit still applies (parseAs: 'string').
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (BLANK.test(text)) return done(null, undefined);
    try {
      done(null, parseStrictJson(text));
    } catch (error) {
      if (error instanceof JsonKeyError)
        done(new AppError('VALIDATION_FAILED', error.message, { [error.path]: [error.message] }), undefined);
      else
        done(
          Object.assign(new Error("Body is not valid JSON but content-type is set to 'application/json'"), { statusCode: 400 }),
          undefined,
        );
    }
  });

  app.addHook('preValidation', async (request) => {
    const bad =
      findBadText(request.params) ??
      findBadText(request.query) ??
      findBadText(request.body) ??
      findBadHeader(request.headers as Record<string, string | string[] | undefined>);
    if (bad) throw new AppError('VALIDATION_FAILED', bad.message, { [bad.path]: [bad.message] });
  });
}
