/**
 * The framing of a pipeline's storage files (checkpoints and input-log segments): each record is
 * `[u32 length][u32 CRC-32 of the payload][payload]`, little-endian. A reader takes records until the file
 * ends; a record cut short or whose CRC does not match (a write torn by a crash, a damaged disk) ends the
 * reading there, and the reader says so (`clean` false, `damagedAt` its offset), so that a journal's torn
 * tail is told apart from a complete file. Reading is synchronous on purpose: it runs in a pipeline's worker
 * thread, never on the server's event loop.
 */
import { closeSync, fstatSync, openSync, readSync, writevSync } from 'node:fs';
import { crc32 } from 'node:zlib';

export const FRAME_HEADER_BYTES = 8;
/** No record is longer than this (a body chunk, a part of a checkpoint): a longer length is damage. */
export const MAX_FRAME_BYTES = 256 * 1024 * 1024;

/**
 * Writes one record, whose payload is `parts` one after another, at the file descriptor's position (append
 * mode: its end), header and parts in one writev (no copy of the payload); throws what the write throws (ENOSPC).
 */
export function writeFrame(fd: number, ...parts: Uint8Array[]): number {
  let length = 0;
  let crc = 0;
  for (const part of parts) {
    length += part.byteLength;
    crc = crc32(part, crc);
  }
  const header = Buffer.allocUnsafe(FRAME_HEADER_BYTES);
  header.writeUInt32LE(length, 0);
  header.writeUInt32LE(crc, 4);
  writeAll(fd, [header, ...parts]);
  return FRAME_HEADER_BYTES + length;
}

/** All of `buffers`, in order, however the writes are cut short. */
function writeAll(fd: number, buffers: Uint8Array[]): void {
  let rest = buffers.filter((b) => b.byteLength > 0);
  while (rest.length > 0) {
    let done = writevSync(fd, rest);
    // skip what was written: whole buffers, then the written start of the next
    let i = 0;
    while (i < rest.length && done >= rest[i]!.byteLength) done -= rest[i++]!.byteLength;
    rest = rest.slice(i);
    if (done > 0) rest[0] = rest[0]!.subarray(done);
  }
}

export interface FrameReading {
  /** Whether the file ended exactly after its last good record. */
  clean: boolean;
  /** Where the first bad record starts (the length of the good prefix). */
  damagedAt: number;
}

/**
 * The records of a file in order (a fresh buffer each), read lazily; the generator's return value says
 * whether the file ended cleanly. The file is closed when the iteration ends, however it ends.
 */
export function* iterateFrames(path: string): Generator<Buffer, FrameReading> {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const header = Buffer.allocUnsafe(FRAME_HEADER_BYTES);
    let at = 0;
    while (at < size) {
      if (size - at < FRAME_HEADER_BYTES || readSync(fd, header, 0, FRAME_HEADER_BYTES, at) !== FRAME_HEADER_BYTES) return { clean: false, damagedAt: at };
      const length = header.readUInt32LE(0);
      const sum = header.readUInt32LE(4);
      if (length > MAX_FRAME_BYTES || at + FRAME_HEADER_BYTES + length > size) return { clean: false, damagedAt: at };
      const payload = Buffer.allocUnsafe(length);
      if (length > 0 && readSync(fd, payload, 0, length, at + FRAME_HEADER_BYTES) !== length) return { clean: false, damagedAt: at };
      if (crc32(payload) !== sum) return { clean: false, damagedAt: at };
      at += FRAME_HEADER_BYTES + length;
      yield payload;
    }
    return { clean: true, damagedAt: at };
  } finally {
    closeSync(fd);
  }
}

/** Calls `visit` with each record's payload in order; answers whether the file ended cleanly. */
export function readFrames(path: string, visit: (payload: Buffer) => void): FrameReading {
  const it = iterateFrames(path);
  for (;;) {
    const r = it.next();
    if (r.done) return r.value;
    visit(r.value);
  }
}
