/**
 * What a pipeline's connectors may reach: files only under the connector root, http(s) only through the
 * outbound-fetch policy, and sources no bigger than a byte cap.
 *
 * Rules for file paths (file_input, file_output, url_input with file:// or a plain path):
 * - A relative path is relative to the root; an absolute path (or file:// URL) must lie under the root.
 * - `..` out of the root, absolute paths elsewhere and symlinks (anywhere in the path) that lead out of the
 *   root are refused; the judgement is on realpath(target) against realpath(root).
 * - A path outside the root is refused before anything is opened or even checked for existence, so
 *   errors say nothing about files there.
 * - Only regular files: devices, FIFOs, sockets and directories are refused, and so is anything under
 *   /proc, /sys and /dev (kernel files look regular) even when the root is set to include them.
 * - Files are then opened with O_NOFOLLOW on the resolved path; output files are created 0600.
 *
 * Pure of the server (options come in as arguments), so it works inside a pipeline's worker thread.
 */
import { constants, promises as fsp } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FetchPolicy } from '../../net/fetch-policy.js';

export interface ConnectorAccess {
  /** The only directory file connectors reach (absolute). */
  root: string;
  /** What url_input over http(s) may reach. */
  fetchPolicy: FetchPolicy;
  /** The largest source (file or HTTP body) an input connector reads, in bytes. */
  maxBytes: number;
}

/** 64 MiB: the same as the largest request body `ops serve` takes. */
export const DEFAULT_CONNECTOR_MAX_BYTES = 64 * 1024 * 1024;

/** A path the connector may not use; the message is safe to show (it names no file content). */
export class AccessRefused extends Error {}

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

/** The file path a connector location names (a plain path or a file:// URL), relative paths under the root. */
export function locationPath(location: string, root: string): string {
  let p = location;
  if (/^file:/i.test(location)) {
    try {
      p = fileURLToPath(location);
    } catch (err) {
      throw new AccessRefused(`'${location}' is not a usable file URL (${(err as Error).message})`);
    }
  }
  if (p.includes('\0')) throw new AccessRefused('the path contains a NUL byte');
  return resolve(root, p);
}

const KERNEL_FILES = /^\/(proc|sys|dev)(\/|$)/;

function special(location: string): AccessRefused {
  return new AccessRefused(`'${location}' is not a regular file`);
}

function outside(location: string, root: string): AccessRefused {
  return new AccessRefused(`'${location}' is outside the connector root ${root}: file connectors reach only files under it (set it with ops serve --connector-root)`);
}

async function realRoot(root: string): Promise<string> {
  try {
    return await fsp.realpath(root);
  } catch (err) {
    throw new AccessRefused(`the connector root ${root} is not usable: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** Resolves a location to read: a regular file under the root, symlinks resolved. */
export async function resolveReadPath(location: string, access: ConnectorAccess): Promise<string> {
  const rootReal = await realRoot(access.root);
  const wanted = locationPath(location, access.root);
  if (!inside(access.root, wanted) && !inside(rootReal, wanted)) throw outside(location, access.root);
  let real: string;
  try {
    real = await fsp.realpath(wanted);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new AccessRefused(code === 'ENOENT' ? `'${location}' does not exist under the connector root` : `'${location}' cannot be resolved (${code})`);
  }
  if (!inside(rootReal, real)) throw outside(location, access.root);
  if (KERNEL_FILES.test(real)) throw special(location);
  const st = await fsp.stat(real);
  if (!st.isFile()) throw special(location);
  return real;
}

/** Resolves a location to append to: under the root, in an existing directory, not a symlink out or a special file. */
export async function resolveWritePath(location: string, access: ConnectorAccess): Promise<string> {
  const rootReal = await realRoot(access.root);
  const wanted = locationPath(location, access.root);
  if (!inside(access.root, wanted) && !inside(rootReal, wanted)) throw outside(location, access.root);
  let dir: string;
  try {
    dir = await fsp.realpath(dirname(wanted));
  } catch {
    throw new AccessRefused(`the directory of '${location}' does not exist under the connector root`);
  }
  if (!inside(rootReal, dir)) throw outside(location, access.root);
  if (KERNEL_FILES.test(dir)) throw special(location);
  const target = resolve(dir, wanted.slice(dirname(wanted).length + 1));
  let st;
  try {
    st = await fsp.lstat(target);
  } catch {
    return target; // created on open
  }
  if (st.isSymbolicLink()) {
    let real: string;
    try {
      real = await fsp.realpath(target);
    } catch {
      throw new AccessRefused(`'${location}' is a symlink that leads nowhere`);
    }
    if (!inside(rootReal, real)) throw outside(location, access.root);
    st = await fsp.stat(real);
    if (!st.isFile()) throw special(location);
    return real;
  }
  if (!st.isFile()) throw special(location);
  return target;
}

/** Flags for opening a resolved path: never through a symlink swapped in after the check. */
export const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW;
export const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;

/** True when a connector location is a file (a plain path or file://), false for http(s) and others. */
export function isFileLocation(location: string): boolean {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return true;
  }
  return url.protocol === 'file:' || url.protocol.length <= 2; /* a Windows drive letter */
}
