/**
 * Every content type as raw bytes, cut off at `maxBytes` (the file uploads whose body is the file: chat files,
 * support attachments). A declared Content-Length over the limit is refused before anything is read; a body
 * that grows past it is cut off instead of buffering whatever a client sends. Register inside the upload's own
 * scope: it replaces that scope's parsers, so the handler checks the type itself (and answers in its own words).
 */
import type { FastifyInstance } from 'fastify';

export function acceptRawBody(scope: FastifyInstance, maxBytes: number, tooLarge: () => Error): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (request, payload, done) => {
    if (Number(request.headers['content-length'] ?? 0) > maxBytes) {
      done(tooLarge(), undefined);
      payload.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    payload.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > maxBytes) {
        failed = true;
        done(tooLarge(), undefined);
        return;
      }
      chunks.push(chunk);
    });
    payload.on('end', () => {
      if (!failed) done(null, Buffer.concat(chunks));
    });
    payload.on('error', (error: Error) => {
      if (!failed) done(error, undefined);
    });
  });
}
