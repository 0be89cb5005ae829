/**
 * What a request presents as its credential (services/kit): the value of an `Authorization: Bearer <value>`
 * header (one token of non-space characters, the scheme in any case; anything else presents none), and a
 * cookie's value (percent-decoded; undefined when absent or not decodable). Pure: header values in, strings out.
 */

export function bearerCredential(authorization: unknown): string | undefined {
  if (typeof authorization !== 'string') return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
}

export function cookieValue(cookieHeader: unknown, name: string): string | undefined {
  if (typeof cookieHeader !== 'string') return undefined;
  for (const part of cookieHeader.split(';')) {
    const i = part.indexOf('=');
    if (i === -1) continue;
    if (part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
