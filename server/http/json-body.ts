/**
 * The JSON body parser: Fastify's own (prototype poisoning refused), after a check of how deeply the
 * text nests. Everything after the parser walks a body recursively (the Idempotency-Key's request
 * hash stringifies it, zod checks it, the text guard reads it), so JSON nested 200,000 deep
 * overflowed the stack there and answered 500. The deepest body of the contract nests under ten
 * levels; JSON_MAX_DEPTH leaves room for that many times over and stays far below where a recursive
 * walk runs out of stack (thousands of levels).
 */
import type { FastifyInstance } from 'fastify';
import { Errors } from './errors.js';

export const JSON_MAX_DEPTH = 100;

/** Whether the JSON text opens more than `max` objects or arrays inside each other (strings skipped). */
export function jsonNestsDeeper(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

export function installJsonBodyParser(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonNestsDeeper(text, JSON_MAX_DEPTH)) return done(Errors.badRequest(`Incorrect parameters: the JSON body nests more than ${JSON_MAX_DEPTH} levels deep`), undefined);
    parse(request, text, done);
  });
}
