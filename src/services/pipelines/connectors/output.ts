/**
 * The output file connector (`file_output`, config {path}): appends each step's changes to a view to a
 * file — JSON as one `{"insert": row}` / `{"delete": row}` object per line, CSV as value columns plus weight.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ConnectorDecl, RelationSchema, WeightedRow } from '../../../engine/index.js';
import { encodeCsvLines, encodeJsonItems } from '../egress/encode.js';
import { ConnectorError } from './input.js';

export class FileOutput {
  private stream: WriteStream | null = null;
  transmittedRecords = 0;
  transmittedBytes = 0;
  errors = 0;
  fatalError: string | null = null;
  readonly format: 'json' | 'csv';
  readonly path: string;

  constructor(
    readonly endpointName: string,
    readonly view: RelationSchema,
    readonly decl: ConnectorDecl,
  ) {
    const p = String(decl.transport.config?.path ?? '');
    this.path = p.startsWith('file:') ? fileURLToPath(p) : p;
    this.format = decl.format?.name === 'csv' ? 'csv' : 'json';
  }

  async open(): Promise<void> {
    const stream = createWriteStream(this.path, { flags: 'a' });
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', (err) =>
        reject(
          new ConnectorError(
            `Output connector '${this.endpointName}' of view '${this.view.name}' cannot open its sink '${this.path}': ${err.message}`,
            { view: this.view.name, endpoint_name: this.endpointName, path: this.path, cause: err.message },
          ),
        ),
      );
    });
    stream.on('error', (err) => {
      this.errors++;
      this.fatalError = err.message;
    });
    this.stream = stream;
  }

  write(rows: WeightedRow[]): void {
    if (!this.stream || this.fatalError) return;
    const lines = this.format === 'json' ? encodeJsonItems(rows).map((s) => s + '\n') : encodeCsvLines(rows, this.view.columns);
    const text = lines.join('');
    this.stream.write(text);
    this.transmittedRecords += lines.length;
    this.transmittedBytes += Buffer.byteLength(text);
  }

  async close(): Promise<void> {
    const s = this.stream;
    this.stream = null;
    if (!s) return;
    await new Promise<void>((resolve) => s.end(() => resolve()));
  }
}
