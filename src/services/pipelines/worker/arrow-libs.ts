/**
 * The Arrow and Parquet libraries of a pipeline's worker, each loaded at its first use only: a pipeline that
 * never reads or answers Arrow or Parquet never loads them (apache-arrow takes about 0.4 s to load,
 * parquet-wasm's WebAssembly module about 5 MB). Shared by egress (arrow_ipc and parquet answers) and
 * ingress (`format=parquet` bodies).
 */
import { createRequire } from 'node:module';
import type * as Arrow from 'apache-arrow';

type ParquetWasm = typeof import('parquet-wasm');
type Hyparquet = typeof import('hyparquet');
type ArrowFfi = typeof import('arrow-js-ffi');

const require = createRequire(import.meta.url);

let arrow: typeof Arrow | undefined;
let parquet: ParquetWasm | undefined;
let hyparquet: Hyparquet | undefined;
let ffi: ArrowFfi | undefined;

/** apache-arrow: Arrow's JavaScript implementation (IPC streams, vectors, record batches). */
export function apacheArrow(): typeof Arrow {
  arrow ??= require('apache-arrow') as typeof Arrow;
  return arrow;
}

/** parquet-wasm: the Rust `parquet` crate's reader and ArrowWriter compiled to WebAssembly (the Node build instantiates its module on require). */
export function parquetWasm(): ParquetWasm {
  parquet ??= require('parquet-wasm') as ParquetWasm;
  return parquet;
}

/**
 * Lets the loaded parquet-wasm go (its WebAssembly memory only grows: after a big decode the module itself is
 * dropped, with its memory, once nothing holds it); the next parquetWasm() loads it anew.
 */
export function releaseParquetWasm(): void {
  if (parquet === undefined) return;
  parquet = undefined;
  const path = require.resolve('parquet-wasm');
  for (const key of Object.keys(require.cache)) if (key === path || key.includes('/parquet-wasm/')) delete require.cache[key];
}

/** hyparquet: a Parquet reader in plain JavaScript; used for a file's footer (its row groups and sizes) before anything is decoded. */
export function hyparquetLib(): Hyparquet {
  // an ES module, loaded by require (Node 20.19 and later load ES modules synchronously)
  hyparquet ??= require('hyparquet') as Hyparquet;
  return hyparquet;
}

/** arrow-js-ffi: Arrow JS record batches read from Arrow's C data interface in WebAssembly memory (parquet-wasm's tables), without serializing them. */
export function arrowFfi(): ArrowFfi {
  ffi ??= require('arrow-js-ffi') as ArrowFfi;
  return ffi;
}
