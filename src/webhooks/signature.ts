/**
 * Webhook signatures: `x-signature` is the lowercase hex HMAC-SHA-256 of the exact request body,
 * keyed with the shared secret. Verification recomputes the MAC over the raw bytes and compares
 * the decoded digests in constant time. The expected value is never returned to callers.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-signature';

const HEX_64 = /^[0-9a-f]{64}$/;
const HEX_64_ANY_CASE = /^[0-9a-fA-F]{64}$/;

export type SignatureProblem = 'missing' | 'malformed' | 'mismatch';

export interface VerifyResult {
  valid: boolean;
  /** Why the signature was rejected (absent when valid). */
  reason?: SignatureProblem;
}

export interface VerifyOptions {
  /** Also accept a `sha256=` prefix and upper-case hex (off by default: the scheme is strict). */
  lenient?: boolean;
}

function toBuffer(data: Buffer | Uint8Array | string): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** The raw 32-byte HMAC-SHA-256 of body keyed with secret. */
export function hmacDigest(secret: string | Buffer, body: Buffer | Uint8Array | string): Buffer {
  return createHmac('sha256', secret).update(toBuffer(body)).digest();
}

/** The value of the `x-signature` header for body: lowercase hex HMAC-SHA-256. */
export function sign(secret: string | Buffer, body: Buffer | Uint8Array | string): string {
  return hmacDigest(secret, body).toString('hex');
}

/**
 * Checks a signature header value against body. Missing, malformed (not 64 hex digits) and wrong
 * signatures are told apart in `reason`, but the comparison itself is constant-time.
 */
export function verify(secret: string | Buffer, body: Buffer | Uint8Array | string, signature: string | string[] | undefined | null, options: VerifyOptions = {}): VerifyResult {
  if (signature === undefined || signature === null) return { valid: false, reason: 'missing' };
  // Several headers of the same name: refuse rather than guess which one counts.
  if (Array.isArray(signature)) return { valid: false, reason: signature.length === 0 ? 'missing' : 'malformed' };
  let value = signature.trim();
  if (value === '') return { valid: false, reason: 'missing' };
  if (options.lenient) {
    if (value.toLowerCase().startsWith('sha256=')) value = value.slice(7);
    if (!HEX_64_ANY_CASE.test(value)) return { valid: false, reason: 'malformed' };
    value = value.toLowerCase();
  } else if (!HEX_64.test(value)) {
    return { valid: false, reason: 'malformed' };
  }
  const given = Buffer.from(value, 'hex');
  const expected = hmacDigest(secret, body);
  if (given.length !== expected.length) return { valid: false, reason: 'malformed' };
  return timingSafeEqual(given, expected) ? { valid: true } : { valid: false, reason: 'mismatch' };
}

/** A human sentence for a rejection reason (never contains the expected signature). */
export function describeProblem(reason: SignatureProblem): string {
  switch (reason) {
    case 'missing':
      return `missing ${SIGNATURE_HEADER} header`;
    case 'malformed':
      return `malformed ${SIGNATURE_HEADER} header: expected 64 lowercase hex digits`;
    case 'mismatch':
      return `${SIGNATURE_HEADER} does not match the body`;
  }
}
