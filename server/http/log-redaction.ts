/**
 * What the server's log says about a request: its method, its address with every secret masked, and
 * the caller's address; never its headers.
 *
 * A secret is masked by what the server reads, not by how it was spelled: the query parser decodes
 * names (`tok%65n=`, `%54oken=` and `token=` all sign in), so each parameter's name is decoded before
 * it is compared, case-insensitively, and the licence path api/licenses/{token} is recognised after
 * decoding too (the router decodes paths). Decoding here is at least as lenient as the parser's: a
 * name the parser would take as `token` is never let through because it failed to decode here.
 */
import { unescape as lenientUnescape } from 'node:querystring';
import type { FastifyServerOptions } from 'fastify';

/** Query parameters whose value never reaches the log (compared lower-case, after decoding). */
const SECRET_PARAMS = new Set(['token', 'auth-token', 'authorization', 'password', 'currentpassword']);
const MASK = '[redacted]';

/** The ways a parser may read `raw`: as it stands, URI-decoded, and leniently (invalid escapes kept). */
function readings(raw: string): string[] {
  const plus = raw.replace(/\+/g, ' ');
  const out = [raw, plus, lenientUnescape(plus)];
  try {
    out.push(decodeURIComponent(plus));
  } catch {
    // Not valid percent-encoding: the lenient reading above stands for it.
  }
  return out;
}

const isSecretName = (raw: string) => readings(raw).some((n) => SECRET_PARAMS.has(n.toLowerCase()));
const isLicencePath = (path: string) => readings(path).some((p) => /^\/+api\/+licenses\/+[^/]/i.test(p));

/** `url` (path and query, as a request line has it) with tokens and passwords masked. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const shownPath = isLicencePath(path) ? `/api/licenses/${MASK}` : path;
  if (q < 0) return shownPath;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return isSecretName(name) ? `${name}=${MASK}` : pair;
    })
    .join('&');
  return `${shownPath}?${query}`;
}

/** Where the log goes, for tests that read it (pino's destination: anything with write). */
export interface LogDestination {
  write(line: string): void;
}

/**
 * Fastify's logger: warnings and errors by default (LOG_LEVEL=info logs every request, masked as
 * above). Headers are not serialised at all; the redact paths guard any log call that passes them.
 */
export function loggerOptions(destination?: LogDestination, level = process.env.LOG_LEVEL ?? 'warn'): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    ...(destination ? { stream: destination } : {}),
    redact: { paths: ['req.headers.authorization', 'req.headers["auth-token"]', 'req.headers.cookie', 'headers.authorization', 'headers["auth-token"]', 'headers.cookie'], censor: MASK },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
    },
  };
}
