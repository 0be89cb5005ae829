/**
 * The query parameters of a running pipeline's data routes as declarations (services/kit/declare.ts): ingress
 * (`?format&force&update_format&array`) and today's ad-hoc queries (`?sql&format`). As in query-fields.ts, each
 * field throws the manager's own error as it is read, in the manager's order, so the first bad parameter answers
 * alone; a repeated parameter reads as its last value except where serde refuses it (`format` of a query).
 * The handler reads them after the pipeline and the relation are found (those answers come first).
 */
import { alsoDocuments, field, objectOf, optional, withDefault } from '../../../kit/declare.js';
import { FelderaError, Errors } from '../../shared/errors.js';
import { UPDATE_FORMATS, type UpdateFormat } from '../../shared/update-formats.js';
import { QUERY_FORMATS } from '../../shared/query-format.js';
import { csvEncoderQuery, jsonEncoderQuery, outputFormat } from '../egress-config.js';
import { boolParam, choice, flag, intParam, param, type Query } from './query-fields.js';

/** The parameter's last value as a string, undefined when absent. */
const last = (v: unknown, name: string): string | undefined => param({ [name]: v } as Query, name);

const INPUT_FORMATS = ['csv', 'json', 'parquet'] as const;

/**
 * Ingress: `format` (csv or json: UnknownInputFormat), `force`, then for JSON only `update_format`
 * (ParserConfigError; snowflake is not for JSON) and `array`; CSV ignores the last two, as the manager does.
 */
export const ingressQuery = objectOf(
  {
    format: withDefault(
      field<(typeof INPUT_FORMATS)[number]>({ type: 'string', enum: [...INPUT_FORMATS] }, (v, _fail, name) => {
        const format = last(v, name)!;
        if (!(INPUT_FORMATS as readonly string[]).includes(format)) throw Errors.unknownInputFormat(format);
        return format as (typeof INPUT_FORMATS)[number];
      }),
      'csv',
    ),
    force: flag(false),
    update_format: optional(field<string>({ type: 'string', enum: [...UPDATE_FORMATS], description: 'JSON input only' }, (v, _fail, name) => last(v, name))),
    array: optional(field<string>({ type: 'boolean', description: 'JSON input only' }, (v, _fail, name) => last(v, name))),
  },
  {
    refine: (value, input) => {
      if (value.format !== 'json') return;
      const uf = value.update_format ?? 'insert_delete';
      if (uf === 'snowflake') throw Errors.parserConfig("update format 'snowflake' is not supported for JSON input streams");
      if (!UPDATE_FORMATS.includes(uf)) throw Errors.parserConfig(`unknown update format '${uf}'; valid formats: ${UPDATE_FORMATS.join(', ')}`);
      boolParam(input as Query, 'array', false);
    },
  },
);

/** What ingress reads of a checked `ingressQuery`: CSV's is always insert_delete, not an array. */
export function ingressShape(q: ReturnType<typeof ingressQuery.check>): { updateFormat: UpdateFormat; array: boolean } {
  if (q.format !== 'json') return { updateFormat: 'insert_delete', array: false };
  return { updateFormat: (q.update_format ?? 'insert_delete') as UpdateFormat, array: boolParam({ array: q.array }, 'array', false) };
}

/** Ad-hoc queries: `sql` (required, not blank), then `format` (a serde enum, `text` by default). */
export const adHocQuery = objectOf({
  sql: field<string>({ type: 'string', description: 'a SELECT or INSERT INTO statement' }, (v, _fail, name) => {
    const sql = last(v, name);
    if (sql === undefined || sql.trim() === '') throw Errors.badParam(name, sql ?? '', 'a SELECT or INSERT INTO statement');
    return sql;
  }),
  format: choice(QUERY_FORMATS, 'text'),
});

/** A parameter from a closed set, worded as the manager's InvalidQueryParameter (`expected 'a' or 'b'`). */
function oneOf<T extends string>(values: readonly T[], dflt: T, expected: string) {
  return withDefault(
    field<T>({ type: 'string', enum: [...values] }, (v, _fail, name) => {
      const given = last(v, name)!;
      if (!(values as readonly string[]).includes(given)) throw Errors.badParam(name, given, expected);
      return given as T;
    }),
    dflt,
  );
}

/**
 * Egress, first: `mode` (watch or snapshot), then `query` (table, quantiles, neighborhood; only snapshots answer
 * the last two: 405). The route reads the rest after, as the manager does: a JSON body's connector
 * configuration, or else the query's (`connectorQuery`, then the encoder's fields: egress-config.ts), then a
 * snapshot's `quantilesQuery`.
 */
const egressMode = objectOf(
  {
    mode: oneOf(['watch', 'snapshot'] as const, 'watch', "'watch' or 'snapshot'"),
    query: oneOf(['table', 'quantiles', 'neighborhood'] as const, 'table', "'table', 'quantiles' or 'neighborhood'"),
  },
  {
    refine: ({ mode, query }) => {
      if (mode === 'watch' && query === 'quantiles') throw new FelderaError(405, 'QuantileStreamingNotSupported', 'Continuous monitoring is not supported for quantiles. Use mode=snapshot instead.');
      if (mode === 'watch' && query === 'neighborhood')
        throw new FelderaError(405, 'NeighborhoodStreamingNotSupported', 'Continuous monitoring is not supported for neighborhoods. Use mode=snapshot instead.');
    },
  },
);

/**
 * A stream's connector from the query (no JSON body): `format` (json or csv: UnknownOutputFormat), `backpressure`,
 * then for a watch `send_snapshot` (a snapshot does not read it). Read before the encoder's fields.
 */
const connectorFields = {
  format: withDefault(
    field<'json' | 'csv'>({ type: 'string', enum: ['json', 'csv'] }, (v, _fail, name) => outputFormat(last(v, name)!)),
    'csv',
  ),
  backpressure: flag(false),
};
export const snapshotConnectorQuery = objectOf(connectorFields);
export const watchConnectorQuery = objectOf({ ...connectorFields, send_snapshot: flag(false) });

/** A snapshot's `quantiles` (query=quantiles only): an integer, 100 when absent or empty, 1 to 1000 (416 NumQuantilesOutOfRange). */
export const quantilesQuery = objectOf({
  quantiles: withDefault(
    field<number>({ type: 'integer', minimum: 1, maximum: 1000 }, (v, _fail, name) => {
      const quantiles = intParam({ [name]: v } as Query, name, 100);
      if (quantiles < 1 || quantiles > 1000)
        throw new FelderaError(416, 'NumQuantilesOutOfRange', `The requested number of quantiles, ${quantiles}, is beyond the allowed range 1 to 1000.`, { quantiles });
      return quantiles;
    }),
    100,
  ),
});

/** The egress route's declaration: checks `mode` and `query`; documents every parameter the route reads. */
export const egressQuery = alsoDocuments(egressMode, watchConnectorQuery, jsonEncoderQuery, csvEncoderQuery, quantilesQuery);
