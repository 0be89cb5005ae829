/**
 * XXHASH(string | binary, seed) -> BIGINT (Feldera docs/sql/string.md and binary.md): the 64-bit xxHash
 * (XXH64) of the string's UTF-8 bytes or of the binary's bytes, with the seed taken as an unsigned 64-bit
 * value, the result read as a signed 64-bit integer (as Feldera's sqllib does). Strict in NULLs.
 * XXH64 is written here from its published specification, over BigInt words (every step mod 2^64).
 * The result is an exact 64-bit integer: a number while it is a safe integer, a bigint beyond.
 */
import { mk } from '../../types/types.js';
import { strict2 } from '../bexpr.js';
import { argc, typeErr } from './args.js';
import type { FnTable } from './registry.js';

const M = (1n << 64n) - 1n;
const P1 = 11400714785074694791n;
const P2 = 14029467366897019727n;
const P3 = 1609587929392839161n;
const P4 = 9650029242287828579n;
const P5 = 2870177450012600261n;

const rotl = (x: bigint, r: bigint): bigint => ((x << r) | (x >> (64n - r))) & M;
const round = (acc: bigint, lane: bigint): bigint => (rotl((acc + lane * P2) & M, 31n) * P1) & M;
const merge = (acc: bigint, v: bigint): bigint => ((((acc ^ round(0n, v)) * P1) & M) + P4) & M;

function u64(b: Uint8Array, i: number): bigint {
  let v = 0n;
  for (let k = 7; k >= 0; k--) v = (v << 8n) | BigInt(b[i + k]!);
  return v;
}
const u32 = (b: Uint8Array, i: number): bigint => BigInt((b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0);

/** XXH64 of the bytes with the seed (as unsigned 64 bits); the hash as an unsigned 64-bit value. */
export function xxh64(bytes: Uint8Array, seed: bigint): bigint {
  const s = BigInt.asUintN(64, seed);
  const n = bytes.length;
  let i = 0;
  let h: bigint;
  if (n >= 32) {
    let v1 = (s + P1 + P2) & M;
    let v2 = (s + P2) & M;
    let v3 = s;
    let v4 = (s - P1) & M;
    for (; i + 32 <= n; i += 32) {
      v1 = round(v1, u64(bytes, i));
      v2 = round(v2, u64(bytes, i + 8));
      v3 = round(v3, u64(bytes, i + 16));
      v4 = round(v4, u64(bytes, i + 24));
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & M;
    h = merge(merge(merge(merge(h, v1), v2), v3), v4);
  } else h = (s + P5) & M;
  h = (h + BigInt(n)) & M;
  for (; i + 8 <= n; i += 8) h = (((rotl(h ^ round(0n, u64(bytes, i)), 27n) * P1) & M) + P4) & M;
  if (i + 4 <= n) {
    h = (((rotl(h ^ ((u32(bytes, i) * P1) & M), 23n) * P2) & M) + P3) & M;
    i += 4;
  }
  for (; i < n; i++) h = (rotl(h ^ ((BigInt(bytes[i]!) * P5) & M), 11n) * P1) & M;
  h ^= h >> 33n;
  h = (h * P2) & M;
  h ^= h >> 29n;
  h = (h * P3) & M;
  h ^= h >> 32n;
  return h;
}

/** A signed 64-bit value in the engine's exact integer form: a number while safe, else a bigint. */
function int64Value(v: bigint): number | bigint {
  const x = BigInt.asIntN(64, v);
  const n = Number(x);
  return Number.isSafeInteger(n) ? n : x;
}

export const HASH_FNS: FnTable = {
  XXHASH: {
    sig: 'XXHASH(string | binary, seed) -> BIGINT: XXH64 of the UTF-8 bytes (or the bytes) with the seed',
    nulls: 'strict',
    bind: (args, pos, name) => {
      argc(name, args, 2, 2, pos);
      const [v, seed] = args as [(typeof args)[0] & object, (typeof args)[0] & object];
      const k = v.type.kind;
      if (!['VARCHAR', 'CHAR', 'VARBINARY', 'NULL'].includes(k)) throw typeErr(name, args, pos, ': a string or a binary value is needed');
      if (!['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'NULL'].includes(seed.type.kind)) throw typeErr(name, args, pos, ': the seed must be an integer');
      const binary = k === 'VARBINARY';
      return strict2(v, seed, mk('BIGINT', v.type.nullable || seed.type.nullable), (x, s) =>
        int64Value(xxh64(binary ? Buffer.from(x as string, 'hex') : Buffer.from(x as string, 'utf8'), BigInt(s as number | bigint))),
      );
    },
  },
};
