/**
 * A route's response written with `JSON.stringify` alone, without the app's zod serializer checking it first
 * (app.ts `setSerializerCompiler`). For hot read routes whose answer is built field by field by a typed function
 * (the route's handler must return the schema's type: the type provider checks it at compile time), where the
 * per-request check of every row cost more than the query: the order blotter's 50 rows were 17 % of its CPU
 * (modules/orders README "Speed"). The route keeps its response schema for the OpenAPI document, and its
 * integration tests parse every answer with that schema.
 */
import type { FastifySerializerCompiler } from 'fastify/types/schema';

export const typedJsonSerializer: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data);
