/**
 * The output file connector (`file_output`, config {path}): appends each step's changes to a view to a
 * file — JSON as one `{"insert": row}` / `{"delete": row}` object per line, CSV as value columns plus weight.
 * The file must lie under the connector root (shared/connector-access.ts); it is created 0600 and opened with
 * O_NOFOLLOW after its path was resolved.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { APPEND_FLAGS, resolveWritePath, type ConnectorAccess } from '../../shared/connector-access.js';
import type { ConnectorDecl, RelationSchema, WeightedRow } from '../../../../engine/index.js';
import { encodeCsvLines, encodeJsonItems, OutputTooLarge } from '../egress/encode.js';
import { ConnectorError } from './input.js';

export class FileOutput {
  private stream: WriteStream | null = null;
  transmittedRecords = 0;
  transmittedBytes = 0;
  errors = 0;
  fatalError: string | null = null;
  readonly format: 'json' | 'csv';
  /** The path as the program gives it (a plain path or a file:// URL). */
  readonly path: string;
  private resolved: string | null = null;

  constructor(
    readonly endpointName: string,
    readonly view: RelationSchema,
    readonly decl: ConnectorDecl,
    private readonly access: ConnectorAccess,
  ) {
    this.path = String(decl.transport.config?.path ?? '');
    this.format = decl.format?.name === 'csv' ? 'csv' : 'json';
  }

  private refused(cause: string): ConnectorError {
    return new ConnectorError(`Output connector '${this.endpointName}' of view '${this.view.name}' cannot open its sink '${this.path}': ${cause}`, {
      view: this.view.name,
      endpoint_name: this.endpointName,
      path: this.path,
      cause,
    });
  }

  /** Checks the sink lies under the connector root (nothing is opened or created). Throws ConnectorError. */
  async check(): Promise<void> {
    try {
      this.resolved = await resolveWritePath(this.path, this.access);
    } catch (err) {
      throw this.refused((err as Error).message);
    }
  }

  async open(): Promise<void> {
    if (this.resolved === null) await this.check();
    const stream = createWriteStream(this.resolved!, { flags: APPEND_FLAGS as unknown as string /* fs.open takes numeric flags */, mode: 0o600 });
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', (err) => reject(this.refused(err.message)));
    });
    stream.on('error', (err) => {
      this.errors++;
      this.fatalError = err.message;
    });
    this.stream = stream;
  }

  write(rows: WeightedRow[]): void {
    if (!this.stream || this.fatalError) return;
    let lines: string[];
    try {
      lines = this.format === 'json' ? encodeJsonItems(rows).map((s) => s + '\n') : encodeCsvLines(rows, this.view.columns);
    } catch (err) {
      if (!(err instanceof OutputTooLarge)) throw err;
      this.errors++;
      this.fatalError = err.message; // stats show it; nothing more is written (a file missing a step would mislead)
      return;
    }
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
