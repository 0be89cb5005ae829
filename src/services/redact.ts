/**
 * What the logs of `ops serve` may not show: secrets in request URLs and headers.
 *
 * Rules:
 *  - redactUrl(url): every query parameter whose name says it carries a secret (key, token, code,
 *    secret, password, signature, session, auth, credential; any case, as part of a longer name too:
 *    `api_key`, `access_token`) keeps its name and loses its value: `?key=[REDACTED]`. The path and
 *    the other parameters are kept as sent. A URL that cannot be read past its `?` has its whole
 *    query replaced.
 *  - SECRET_HEADERS are never logged (the JSON log's request serializer shows none, and its `redact`
 *    paths blank them if a log line ever carries them).
 *  - Used by the request log (`--log-requests`) and the JSON log (OPS_LOG_LEVEL) in server.ts.
 */

export const REDACTED = '[REDACTED]';

const SECRET_PARAM = /key|token|code|secret|passw|signature|session|auth|credential/i;

/** The headers whose values are secrets. */
export const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-signature', 'x-api-key', 'proxy-authorization'];

/** `url` (a path with its query, as in a request line) with the values of secret parameters replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const query = url.slice(q + 1);
  const hash = query.indexOf('#');
  const params = hash === -1 ? query : query.slice(0, hash);
  const parts = params.split('&').map((part) => {
    const eq = part.indexOf('=');
    const rawName = eq === -1 ? part : part.slice(0, eq);
    let name: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      return `${rawName}=${REDACTED}`;
    }
    return SECRET_PARAM.test(name) && eq !== -1 ? `${rawName}=${REDACTED}` : part;
  });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

/** pino `redact` paths for the JSON log: secret headers of requests and responses. */
export const LOG_REDACT_PATHS = SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `res.headers["${h}"]`, `headers["${h}"]`]);
