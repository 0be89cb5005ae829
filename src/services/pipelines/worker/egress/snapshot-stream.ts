/**
 * The snapshot a `send_snapshot=true` watch stream starts with, on the worker's side: the relation's
 * contents taken at one point between steps (in key order, as inserts: positive weights only, as a
 * snapshot reads them), then encoded part by part as the stream asks for more.
 *
 * Rules: the rows are taken once, as a copy (contents() builds new row objects), so later steps do not
 * change what the snapshot sends; a part holds the rows of at most PART_RECORDS records, cut into chunks of
 * the stream's chunkRecords (buffer_size_records) and encoded when asked for (never the whole snapshot as
 * one string); a Snowflake stream's records are numbered first (the numbers are reserved on its counter
 * when the snapshot is taken, so the changes that follow it number on after it); an empty relation is one
 * empty, done part.
 */
import type { Circuit, ColumnSchema, CompiledProgram, WeightedRow } from '../../../../engine/index.js';
import { FelderaError } from '../../shared/errors.js';
import { engineName, findRelation, type ProgramSchema } from '../../shared/names.js';
import { encodeChunks, type RecordCounter } from './encode.js';
import { CHUNK_RECORDS, defaultEncoding, type EncodedChunk, type OutputEncoding, type OutputFormat } from '../../shared/encoding.js';
import type { QueryGuard } from './query-memory.js';
import { sortedEntries } from './snapshot.js';

/** Chunks of the default size in one part: what the stream is sent before it asks for the next part. */
export const PART_CHUNKS = 2;
/** Records in one part (rows are not split between parts). */
export const PART_RECORDS = PART_CHUNKS * CHUNK_RECORDS;

/** What a sent row's place holds, so that the rows sent can be collected while the rest are still owed. */
const RELEASED: WeightedRow = { row: {}, weight: 0 };

export class SnapshotStream {
  private pos = 0;

  private constructor(
    private readonly rows: WeightedRow[],
    private readonly encoding: OutputEncoding,
    private readonly columns: ColumnSchema[],
    private readonly counter: RecordCounter,
  ) {}

  /** The contents of `relation` (an output name) now; `streamCounter` is the stream's record counter (its snapshot's numbers are taken from it). */
  static take(
    circuit: Circuit,
    program: ProgramSchema & Pick<CompiledProgram, 'valueCodec'>,
    relation: string,
    encoding: OutputFormat | OutputEncoding,
    streamCounter: RecordCounter = { next: 0 },
    guard?: QueryGuard,
  ): SnapshotStream {
    const rel = findRelation(program, `"${relation.replace(/"/g, '""')}"`, 'any');
    if (!rel) throw new FelderaError(404, 'UnknownOutputEndpoint', `Unknown relation '${relation}'`);
    const enc = typeof encoding === 'string' ? defaultEncoding(encoding) : encoding;
    const rows = sortedEntries(circuit, engineName(rel), rel.columns, guard);
    const counter = { next: streamCounter.next };
    if (enc.updateFormat === 'snowflake') streamCounter.next += rows.reduce((n, r) => n + r.weight, 0);
    return new SnapshotStream(rows, enc, rel.columns, counter);
  }

  get done(): boolean {
    return this.pos >= this.rows.length;
  }

  /** The next part: the rows of up to PART_RECORDS records, in chunks; the rows sent are let go. */
  next(): EncodedChunk[] {
    // JSON writes a row of weight w as w records, CSV as one line
    const from = this.pos;
    let records = 0;
    while (this.pos < this.rows.length && (records === 0 || records + this.recordsOf(this.rows[this.pos]!) <= PART_RECORDS)) {
      records += this.recordsOf(this.rows[this.pos]!);
      this.pos++;
    }
    const part = this.rows.slice(from, this.pos);
    this.rows.fill(RELEASED, from, this.pos);
    return encodeChunks(part, this.encoding, this.columns, this.counter);
  }

  private recordsOf(r: WeightedRow): number {
    return this.encoding.format === 'json' ? r.weight : 1;
  }
}
