/**
 * UUID values (Feldera's UUID type, docs/sql/uuid.md): held as the canonical text, lower-case hyphenated
 * `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, so that comparing two texts compares their 16 bytes in order.
 * Text is read with PostgreSQL's rules, as Feldera's: 32 hexadecimal digits of either case, optionally within
 * `{}`, with a hyphen allowed after any complete group of 4 digits; anything else (blanks, the URN form) is not a
 * UUID. Bytes: exactly 16.
 */

/** The canonical text of a UUID written as text, or undefined when it is not one. */
export function parseUuid(text: string): string | undefined {
  let body = text;
  if (body.startsWith('{')) {
    if (!body.endsWith('}')) return undefined;
    body = body.slice(1, -1);
  }
  let hex = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '-') {
      // a hyphen only after a complete group of four digits, never first, last or doubled
      if (hex.length === 0 || hex.length % 4 !== 0 || body[i - 1] === '-' || i === body.length - 1) return undefined;
    } else if (/[0-9a-fA-F]/.test(c)) hex += c;
    else return undefined;
  }
  return hex.length === 32 ? uuidFromHex(hex) : undefined;
}

/** 32 hexadecimal digits (16 bytes) as the canonical text. */
export function uuidFromHex(hex: string): string {
  const h = hex.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The 16 bytes of a canonical UUID, as lower-case hexadecimal (the VARBINARY form). */
export function uuidToHex(uuid: string): string {
  return uuid.replace(/-/g, '');
}
