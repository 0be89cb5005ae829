/**
 * The figures of the process this code runs in that Prometheus' process collector reports and Feldera's
 * pipeline /metrics carries (process_open_fds, _max_fds, _virtual_memory_bytes, _virtual_memory_max_bytes,
 * _threads, _swap_bytes), read from Linux's /proc. A pipeline runs in a process of its own, so in its worker
 * they are the pipeline's own.
 *
 * Rules: a figure that cannot be read (not Linux, an unreadable file) or has no value (an unlimited limit) is
 * null, and /metrics leaves it out, as Feldera leaves out what its collector cannot give. Reading costs a
 * directory listing and two small files: callers read at most once a second (latest()). The parsers are pure.
 */
import { readFileSync, readdirSync } from 'node:fs';

export interface ProcessFigures {
  open_fds: number | null;
  max_fds: number | null;
  virtual_memory_bytes: number | null;
  virtual_memory_max_bytes: number | null;
  threads: number | null;
  swap_bytes: number | null;
}

const KIB = 1024;

/** VmSize, Threads and VmSwap of a /proc/PID/status text. */
export function parseStatus(text: string): Pick<ProcessFigures, 'virtual_memory_bytes' | 'threads' | 'swap_bytes'> {
  const field = (name: string): number | null => {
    const m = new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text);
    return m ? Number(m[1]) : null;
  };
  const kib = (v: number | null) => (v === null ? null : v * KIB);
  return { virtual_memory_bytes: kib(field('VmSize')), threads: field('Threads'), swap_bytes: kib(field('VmSwap')) };
}

/** The soft limits on open files and address space of a /proc/PID/limits text ("unlimited": null). */
export function parseLimits(text: string): Pick<ProcessFigures, 'max_fds' | 'virtual_memory_max_bytes'> {
  const soft = (name: string): number | null => {
    const m = new RegExp(`^${name}\\s+(\\S+)`, 'm').exec(text);
    return m && /^\d+$/.test(m[1]!) ? Number(m[1]) : null;
  };
  return { max_fds: soft('Max open files'), virtual_memory_max_bytes: soft('Max address space') };
}

function readOr<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** The figures of the process whose /proc directory is `proc` (this one's by default). */
export function readProcessFigures(proc = '/proc/self'): ProcessFigures {
  return {
    open_fds: readOr(() => readdirSync(`${proc}/fd`).length, null),
    ...readOr(() => parseLimits(readFileSync(`${proc}/limits`, 'utf8')), { max_fds: null, virtual_memory_max_bytes: null }),
    ...readOr(() => parseStatus(readFileSync(`${proc}/status`, 'utf8')), { virtual_memory_bytes: null, threads: null, swap_bytes: null }),
  };
}

const READ_EVERY_MS = 1000;
let last: { at: number; figures: ProcessFigures } | null = null;

/** This process's figures, read again when the last reading is older than a second. */
export function latestProcessFigures(now = Date.now()): ProcessFigures {
  if (last === null || now - last.at >= READ_EVERY_MS) last = { at: now, figures: readProcessFigures() };
  return last.figures;
}
