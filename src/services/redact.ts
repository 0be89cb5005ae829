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
 *  - redactLocation(location): a URL (or a file path) as it may be shown in an error or a log: the
 *    user and password of `scheme://user:password@host` replaced, then the query as redactUrl does.
 *  - Used by the request log (`--log-requests`) and the JSON log (OPS_LOG_LEVEL) in server.ts, and by
 *    the pipeline connectors' errors and logs (a `url_input` URL may carry a token).
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

/** A URL or path with its credentials (user info, secret query parameters) replaced. */
export function redactLocation(location: string): string {
  return redactUrl(location.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, `$1${REDACTED}@`));
}

/** pino `redact` paths for the JSON log: secret headers of requests and responses. */
export const LOG_REDACT_PATHS = SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `res.headers["${h}"]`, `headers["${h}"]`]);
