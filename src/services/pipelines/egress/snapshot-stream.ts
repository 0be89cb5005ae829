/**
 * The snapshot a `send_snapshot=true` watch stream starts with, on the worker's side: the relation's
 * contents taken at one point between steps (in key order, as inserts: positive weights only, as a
 * snapshot reads them), then encoded part by part as the stream asks for more.
 *
 * Rules: the rows are taken once, as a copy (contents() builds new row objects), so later steps do not
 * change what the snapshot sends; a part holds at most PART_CHUNKS chunks of at most CHUNK_RECORDS records
 * each, encoded when asked for (never the whole snapshot as one string); an empty relation is one empty,
 * done part.
 */
import type { Circuit, ColumnSchema, CompiledProgram, WeightedRow } from '../../../engine/index.js';
import { ApiError } from '../errors.js';
import { engineName, findRelation, type ProgramSchema } from '../names.js';
import { CHUNK_RECORDS, encodeChunks, type EncodedChunk, type OutputFormat } from './encode.js';
import { sortedContents } from './snapshot.js';

/** Chunks in one part: what the stream is sent before it asks for the next part. */
export const PART_CHUNKS = 2;

/** What a sent row's place holds, so that the rows sent can be collected while the rest are still owed. */
const RELEASED: WeightedRow = { row: {}, weight: 0 };

export class SnapshotStream {
  private pos = 0;

  private constructor(
    private readonly rows: WeightedRow[],
    private readonly format: OutputFormat,
    private readonly columns: ColumnSchema[],
  ) {}

  /** The contents of `relation` (an output name) now. */
  static take(circuit: Circuit, program: ProgramSchema & Pick<CompiledProgram, 'valueCodec'>, relation: string, format: OutputFormat): SnapshotStream {
    const rel = findRelation(program, `"${relation.replace(/"/g, '""')}"`, 'any');
    if (!rel) throw new ApiError(404, 'UnknownOutputEndpoint', `Unknown relation '${relation}'`);
    return new SnapshotStream(sortedContents(circuit.contents(engineName(rel)), rel.columns), format, rel.columns);
  }

  get done(): boolean {
    return this.pos >= this.rows.length;
  }

  /** The next part: up to PART_CHUNKS chunks; the rows sent are let go. */
  next(): EncodedChunk[] {
    const out: EncodedChunk[] = [];
    while (out.length < PART_CHUNKS && !this.done) {
      // rows for one chunk: JSON writes a row of weight w as w items, CSV as one line
      const from = this.pos;
      let records = 0;
      while (this.pos < this.rows.length && (records === 0 || records + this.recordsOf(this.rows[this.pos]!) <= CHUNK_RECORDS)) {
        records += this.recordsOf(this.rows[this.pos]!);
        this.pos++;
      }
      const part = this.rows.slice(from, this.pos);
      this.rows.fill(RELEASED, from, this.pos);
      // one chunk (more only for a JSON row whose weight alone is above CHUNK_RECORDS: encodeChunks cuts it)
      out.push(...encodeChunks(part, this.format, this.columns));
    }
    return out;
  }

  private recordsOf(r: WeightedRow): number {
    return this.format === 'json' ? r.weight : 1;
  }
}
