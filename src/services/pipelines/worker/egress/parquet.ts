/**
 * Ad-hoc query results as one Parquet file (the `parquet` format), written by parquet-wasm: the Rust `parquet`
 * crate's ArrowWriter, the writer Feldera itself answers with (crates/adapters/src/adhoc/executor.rs), compiled to
 * WebAssembly. Contract: `parquetFile(ipc)` takes an Arrow IPC stream (arrow.ts) and answers the file's bytes,
 * written with Snappy compression as Feldera's, the Arrow schema kept in its metadata. The WebAssembly module (about 5 MB) is loaded at the first use
 * only, so a pipeline that never answers Parquet never loads it.
 */
import { parquetWasm } from '../arrow-libs.js';

export function parquetFile(ipcStream: Uint8Array): Uint8Array {
  const pq = parquetWasm();
  const table = pq.Table.fromIPCStream(ipcStream);
  const props = new pq.WriterPropertiesBuilder().setCompression(pq.Compression.SNAPPY).build();
  return pq.writeParquet(table, props);
}
