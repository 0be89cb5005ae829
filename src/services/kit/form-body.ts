/**
 * A service's `application/x-www-form-urlencoded` body parser (services/kit): bodies up to `bodyLimit` bytes read
 * as one object of strings, a repeated key's last value; with `bracketArrays` (PHP's and Laravel's forms), a key
 * ending in `[]` collects its values as a list under the name without the brackets (replacing a plain value).
 */
import type { FastifyInstance } from 'fastify';

export interface FormBodyRules {
  bodyLimit: number;
  bracketArrays?: boolean;
}

export function parseForm(text: string, bracketArrays = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    if (!bracketArrays || !k.endsWith('[]')) out[k] = v;
    else {
      const name = k.slice(0, -2);
      // `tags=a&tags[]=b`: the list replaces the single value
      if (!Array.isArray(out[name])) out[name] = [];
      (out[name] as unknown[]).push(v);
    }
  }
  return out;
}

export function installFormBody(app: FastifyInstance, rules: FormBodyRules): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: rules.bodyLimit }, (_req, body, done) => {
    done(null, parseForm(String(body), rules.bracketArrays));
  });
}
