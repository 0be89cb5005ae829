/**
 * VARBINARY/BINARY functions (Feldera docs/sql/binary.md): TO_HEX, TO_INT, BIN2UTF8, GUNZIP, OCTET_LENGTH of
 * bytes is in string.ts' OCTET_LENGTH for strings only. Values are lower-case hex strings (types/variant.ts).
 */
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
  GUNZIP: one('GUNZIP(binary) -> VARBINARY: NULL when the input is not gzip data', 'VARBINARY', (b) => {
    let bytes: Buffer;
    try {
      bytes = gunzipSync(b, { maxOutputLength: MAX_VALUE_SIZE }); // stops inflating there: a few KiB may inflate to GiB
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new ValueTooLarge('GUNZIP', null, 'bytes');
      return null;
    }
    return bytesToHex(bytes);
  }),
};
