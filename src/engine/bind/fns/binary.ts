/**
 * VARBINARY/BINARY functions (Feldera docs/sql/binary.md): TO_HEX, TO_INT, BIN2UTF8, GUNZIP, and the byte
 * forms of the functions that also take strings (SUBSTRING, LEFT, RIGHT, POSITION, OVERLAY, OCTET_LENGTH, MD5,
 * ||), which string.ts and the || operator call when their first argument is bytes. Values are lower-case hex
 * strings (types/variant.ts): a byte is two characters.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { isString, mk } from '../../types/types.js';
import { bytesToHex, hexToBytes } from '../../types/variant.js';
import { strict1 } from '../bexpr.js';
import { checkSize, MAX_VALUE_SIZE, ValueTooLarge } from '../../types/value-limits.js';
import { argc, typeErr } from './args.js';
import type { FnTable, ScalarFn } from './registry.js';
import type { BExpr } from '../bexpr.js';
import type { Pos } from '../../parse/ast.js';

function bin(name: string, e: BExpr, pos: Pos, strings = false): BExpr {
  if (e.type.kind === 'VARBINARY') return e;
  if (e.type.kind === 'NULL') return { ...e, type: mk('VARBINARY') };
  // TO_HEX/TO_INT take a string as its UTF-8 bytes (Feldera casts it implicitly)
  if (strings && isString(e.type)) return strict1(e, mk('VARBINARY', e.type.nullable), (v) => bytesToHex(Buffer.from(v as string, 'utf8')));
  throw typeErr(name, [e], pos, ': a VARBINARY is needed');
}

const one = (sig: string, out: 'VARCHAR' | 'INTEGER' | 'VARBINARY', f: (b: Buffer) => string | number | null, strings = false): ScalarFn => ({
  sig,
  nulls: 'strict',
  bind: (args, pos, name) => {
    argc(name, args, 1, 1, pos);
    return strict1(bin(name, args[0]!, pos, strings), mk(out, true), (v) => f(hexToBytes(v as string)));
  },
});

export const BINARY_FNS: FnTable = {
  TO_HEX: one(
    'TO_HEX(binary or string) -> VARCHAR: lower-case hex digits (of a string: of its UTF-8 bytes)',
    'VARCHAR',
    (b) => {
      checkSize('TO_HEX', b.length * 2, 'characters');
      return b.toString('hex');
    },
    true,
  ),
  TO_INT: one(
    'TO_INT(binary or string) -> INTEGER: the first 4 bytes, big-endian (fewer bytes are zero-padded on the left; a string: its UTF-8 bytes)',
    'INTEGER',
    (b) => {
      const w = b.subarray(0, 4);
      const pad = Buffer.concat([Buffer.alloc(4 - w.length), w]);
      return pad.readInt32BE(0);
    },
    true,
  ),
  BIN2UTF8: one('BIN2UTF8(binary) -> VARCHAR: the bytes read as UTF-8; NULL when invalid', 'VARCHAR', (b) => {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(b);
    } catch {
      return null;
    }
  }),
  GUNZIP: one('GUNZIP(binary) -> VARCHAR: the decompressed bytes read as UTF-8; NULL when the input is not gzip data', 'VARCHAR', (b) => {
    let bytes: Buffer;
    try {
      bytes = gunzipSync(b, { maxOutputLength: MAX_VALUE_SIZE }); // stops inflating there: a few KiB may inflate to GiB
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new ValueTooLarge('GUNZIP', null, 'bytes');
      return null;
    }
    return bytes.toString('utf8');
  }),
};

/** Whether a call's argument is bytes (a VARBINARY/BINARY): the byte form of a string function applies. */
export const isBytes = (e: BExpr): boolean => e.type.kind === 'VARBINARY';

/** Bytes from `from` (1-based; below 1 counts as 1, as Feldera's binary.md says) for `len` bytes (all when undefined; none when negative). */
export function bytesSubstring(hex: string, from: number, len: number | undefined): string {
  if (len !== undefined && len < 0) return '';
  const start = Math.max(1, from) - 1;
  const end = len === undefined ? hex.length / 2 : start + len;
  return hex.slice(2 * start, 2 * end);
}

export const bytesLeft = (hex: string, k: number): string => hex.slice(0, 2 * Math.max(0, k));
export const bytesRight = (hex: string, k: number): string => (k <= 0 ? '' : hex.slice(Math.max(0, hex.length - 2 * k)));

/** 1-based byte offset of the first `needle` in `hay`, 0 when absent (an empty needle is at 1). */
export function bytesPosition(needle: string, hay: string): number {
  for (let i = 0; i + needle.length <= hay.length; i += 2) if (hay.startsWith(needle, i)) return i / 2 + 1;
  return 0;
}

/** OVERLAY(bytes PLACING new FROM start [FOR remove]): remove defaults to new's length; past the end appends. */
export function bytesOverlay(hex: string, put: string, from: number, remove: number | undefined): string {
  const n = hex.length / 2;
  const at = Math.min(Math.max(from, 1) - 1, n);
  const cut = remove === undefined ? put.length / 2 : Math.max(0, remove);
  return hex.slice(0, 2 * at) + put + hex.slice(2 * Math.min(n, at + cut));
}

export const bytesOctets = (hex: string): number => hex.length / 2;
export const bytesMd5 = (hex: string): string => createHash('md5').update(hexToBytes(hex)).digest('hex');
