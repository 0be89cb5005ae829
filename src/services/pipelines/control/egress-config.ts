/**
 * An egress request's connector configuration, read and checked as today's Feldera reads it
 * (adapters server.rs `output_endpoint`, format/json/output.rs, format/csv.rs): either from the query
 * string (`format`, `backpressure`, `send_snapshot`, and the format's encoder fields: JSON `update_format`,
 * `json_flavor`, `buffer_size_records`, `array`, `key_fields`; CSV `delimiter`, `buffer_size_records`) or
 * from a JSON body holding a whole connector config (`{"format": {"name", "config"}, "transport":
 * {"name": "http_output", "config": {"backpressure"}}, "send_snapshot"}`). Pure: request parts in, an
 * EgressConfig or a FelderaError out. The encoders' query parameters are declared here (`jsonEncoderQuery`,
 * `csvEncoderQuery`: the route's OpenAPI entry lists them); their values are parsed by the encoder, the same
 * code for a query string's text and a body's JSON.
 *
 * Rules (Feldera's, with its error codes; messages name the parameter or field):
 * - no body, an empty one or the JSON `null` is no configuration: the query string is read (v0.24's Python SDK
 *   sends `null` with `?format=json&backpressure=true&mode=watch` when it listens to a view);
 * - body and `format`/`backpressure` query parameters together: 400 InvalidParam; other query parameters
 *   are not read when a body is given (as Feldera), except the service's own `mode` and `query`;
 * - a body that is not JSON, not an object, a transport other than http_output, a format other than json
 *   or csv, a JSON format config without `"array": true`, a field of the wrong type: 400 InvalidParam;
 * - an encoder field that does not parse (unknown update_format or json_flavor, buffer_size_records not a
 *   whole number, key_fields in a query string, a delimiter that is not one ASCII character, a repeated
 *   parameter): 400 ConfigError.EncoderConfigParseError;
 * - update formats an output JSON stream does not support (weighted, raw): 400
 *   ConfigError.OutputFormatNotSupported; key_fields other than with debezium/redis, empty, or naming an
 *   unknown column: 400 ConfigError.InvalidEncoderConfig;
 * - beyond Feldera (which accepts them and then fails on every change, as its HTTP transport cannot carry
 *   key/value records): debezium and redis, and JSON flavors other than the ones written here: 400
 *   ConfigError.OutputFormatNotSupported, said so;
 * - soft_delete (input connectors only): 400 ConfigError.InvalidSoftDeleteConfig; an index: 400
 *   ConfigError.UnknownIndex (ops serve has no indexes).
 * JSON output is always chunked as arrays (`array` is forced true from a query, required in a body);
 * buffer_size_records 0 means 1 record per chunk, as Feldera's encoder; snowflake writes 1 per chunk.
 */
import { randomBytes } from 'node:crypto';
import type { ColumnSchema } from '../../../engine/index.js';
import { FelderaError, Errors } from '../shared/errors.js';
import { field, isObject, objectOf, optional, type Declared, type JsonSchema } from '../../kit/declare.js';
import { Problems } from '../../kit/errors.js';
import { CHUNK_RECORDS, defaultEncoding, type OutputEncoding, type OutputFormat } from '../shared/encoding.js';

export interface EgressConfig {
  encoding: OutputEncoding;
  backpressure: boolean;
  sendSnapshot: boolean;
  /** The format's config as the stream reports it in the stats (Feldera's resolved encoder config). */
  formatConfig: Record<string, unknown>;
  /**
   * Every chunk carries `"snapshot": bool` (today's Feldera writes it always; v0.24 never did). Set by the route
   * for today's clients; implied by `sendSnapshot`.
   */
  snapshotField?: boolean;
}

/** Where the config came from: its text (for error details) and how to name one of its fields. */
interface Source {
  text: string;
  name: (field: string) => string;
}

const UPDATE_FORMATS = ['insert_delete', 'weighted', 'debezium', 'snowflake', 'raw', 'redis'] as const;
/** serde's names of JsonFlavor (ClockInput has no rename). */
const JSON_FLAVORS = ['default', 'debezium_mysql', 'debezium_postgres', 'snowflake', 'kafka_connect_json_converter', 'pandas', 'blockchain', 'c_hex', 'ClockInput', 'datagen', 'postgres'];
/** Feldera's Debug names of the update formats, as its "not supported" message prints them. */
const DEBUG_NAME: Record<string, string> = { weighted: 'Weighted', raw: 'Raw' };
const USIZE_MAX = 2n ** 64n - 1n;

const quoteList = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ');

function invalidParam(error: string): FelderaError {
  return new FelderaError(400, 'InvalidParam', `Invalid parameter: ${error}.`, { error });
}

function configError(code: string, message: string, details: Record<string, unknown>): FelderaError {
  return new FelderaError(400, `ConfigError.${code}`, message, { config_error: details });
}

function parseError(endpoint: string, error: string, config: string): FelderaError {
  return configError('EncoderConfigParseError', `Error parsing format configuration for output endpoint '${endpoint}': ${error}`, {
    endpoint_name: endpoint,
    error,
    config,
  });
}

function notSupported(endpoint: string, error: string): FelderaError {
  return configError('OutputFormatNotSupported', `Format not supported on output endpoint '${endpoint}': ${error}`, { endpoint_name: endpoint, error });
}

function invalidEncoder(endpoint: string, error: string): FelderaError {
  return configError('InvalidEncoderConfig', `invalid format configuration for output endpoint '${endpoint}': ${error}`, { endpoint_name: endpoint, error });
}

/** A bare value as the error shows it: query values as they were sent, body values as JSON. */
const shown = (v: unknown, fromQuery: boolean) => (fromQuery ? `'${String(v)}'` : JSON.stringify(v));

/** The raw encoder fields, from the query (strings) or a body's format config (JSON values). */
type Fields = Record<string, unknown>;

/** buffer_size_records: a whole number of records (usize). */
function readCount(v: unknown, fromQuery: boolean, field: string, fail: (e: string) => FelderaError): number {
  const ok = fromQuery ? typeof v === 'string' && /^\d+$/.test(v) && BigInt(v) <= USIZE_MAX : typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (!ok) throw fail(`invalid value ${shown(v, fromQuery)} for ${field}: expected a whole number of records (0 or more)`);
  return Math.max(1, Number(v));
}

function readBool(v: unknown, fromQuery: boolean, field: string, fail: (e: string) => FelderaError): boolean {
  if (!fromQuery) {
    if (typeof v !== 'boolean') throw fail(`invalid value ${shown(v, false)} for ${field}: expected true or false`);
    return v;
  }
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw fail(`invalid value ${shown(v, true)} for ${field}: expected 'true' or 'false'`);
}

/** The JSON encoder's fields (JsonEncoderConfig): parsed, then validated as Feldera's `validate`. */
function jsonEncoding(
  fields: Fields,
  fromQuery: boolean,
  endpoint: string,
  src: Source,
  columns: ColumnSchema[],
  parseFail: (e: string) => FelderaError,
): { encoding: OutputEncoding; config: Record<string, unknown> } {
  const uf = fields.update_format ?? 'insert_delete';
  if (typeof uf !== 'string' || !(UPDATE_FORMATS as readonly string[]).includes(uf))
    throw parseFail(`invalid value ${shown(uf, fromQuery)} for ${src.name('update_format')}: expected one of ${quoteList(UPDATE_FORMATS)}`);
  let flavor: string | null = null;
  if (fields.json_flavor !== undefined && fields.json_flavor !== null) {
    const f = fields.json_flavor;
    if (typeof f !== 'string' || !JSON_FLAVORS.includes(f)) throw parseFail(`invalid value ${shown(f, fromQuery)} for ${src.name('json_flavor')}: expected one of ${quoteList(JSON_FLAVORS)}`);
    flavor = f;
  }
  const bufferSize = fields.buffer_size_records === undefined ? CHUNK_RECORDS : readCount(fields.buffer_size_records, fromQuery, src.name('buffer_size_records'), parseFail);
  if (fields.array !== undefined) readBool(fields.array, fromQuery, src.name('array'), parseFail);
  let keyFields: string[] | null = null;
  if (fields.key_fields !== undefined && fields.key_fields !== null) {
    const k = fields.key_fields;
    // a query string cannot carry a list (serde_urlencoded reads a string where a sequence is expected)
    if (fromQuery || !Array.isArray(k) || !k.every((x) => typeof x === 'string'))
      throw parseFail(`invalid value ${shown(k, fromQuery)} for ${src.name('key_fields')}: expected a list of column names${fromQuery ? ' (a list can only be given in a JSON body)' : ''}`);
    keyFields = k as string[];
  }

  // Feldera's validate(): which update formats an output JSON stream takes, and key_fields
  if (uf === 'weighted' || uf === 'raw')
    throw notSupported(endpoint, `${DEBUG_NAME[uf]} update format is not supported for output JSON streams (${src.name('update_format')} '${uf}'; output streams take 'insert_delete' or 'snowflake')`);
  if (keyFields) {
    if (uf !== 'debezium' && uf !== 'redis')
      throw invalidEncoder(endpoint, `'key_fields' property is only supported for the 'debezium' or 'redis' update format (${src.name('update_format')} is '${uf}')`);
    if (keyFields.length === 0) throw invalidEncoder(endpoint, "'key_fields' is empty: at least one key column must be specified");
    for (const f of keyFields) if (!columns.some((c) => columnMatches(c, f))) throw invalidEncoder(endpoint, `'key_fields' references unknown field '${f}'`);
  }
  if (uf === 'debezium' || uf === 'redis')
    throw notSupported(
      endpoint,
      `update format '${uf}' writes key/value records, which the HTTP output transport cannot carry (Feldera accepts the stream and then fails to encode every change); egress streams take ${src.name('update_format')} 'insert_delete' or 'snowflake'`,
    );
  const updateFormat = uf as 'insert_delete' | 'snowflake';
  // the flavor Feldera's encoder picks when none is given
  const effectiveFlavor = flavor ?? (updateFormat === 'snowflake' ? 'snowflake' : 'default');
  if (effectiveFlavor !== 'default' && effectiveFlavor !== 'snowflake')
    throw notSupported(endpoint, `${src.name('json_flavor')} '${effectiveFlavor}' is not written by ops serve's egress: it takes 'default' or 'snowflake'`);
  const encoding: OutputEncoding = {
    format: 'json',
    updateFormat,
    flavor: effectiveFlavor,
    // Snowflake requires one record per message (Feldera's encoder sets it so)
    chunkRecords: updateFormat === 'snowflake' ? 1 : bufferSize,
    delimiter: ',',
    streamId: updateFormat === 'snowflake' ? snowflakeStreamId() : '',
  };
  const config = {
    update_format: updateFormat,
    json_flavor: flavor,
    buffer_size_records: fields.buffer_size_records === undefined ? CHUNK_RECORDS : Number(fields.buffer_size_records),
    array: true,
    key_fields: keyFields,
  };
  return { encoding, config };
}

/** The CSV encoder's fields (CsvEncoderConfig). */
function csvEncoding(fields: Fields, fromQuery: boolean, src: Source, parseFail: (e: string) => FelderaError): { encoding: OutputEncoding; config: Record<string, unknown> } {
  let delimiter = ',';
  if (fields.delimiter !== undefined) {
    const d = fields.delimiter;
    // a char, which "must be an ASCII character" (and neither a line break nor the quote, which would break the records)
    if (typeof d !== 'string' || [...d].length !== 1 || d.charCodeAt(0) > 127 || d === '"' || d === '\n' || d === '\r')
      throw parseFail(`invalid value ${shown(d, fromQuery)} for ${src.name('delimiter')}: expected one ASCII character other than a quote or a line break`);
    delimiter = d;
  }
  const chunkRecords = fields.buffer_size_records === undefined ? CHUNK_RECORDS : readCount(fields.buffer_size_records, fromQuery, src.name('buffer_size_records'), parseFail);
  const encoding: OutputEncoding = { format: 'csv', updateFormat: 'insert_delete', flavor: 'default', chunkRecords, delimiter, streamId: '' };
  return { encoding, config: { delimiter, buffer_size_records: fields.buffer_size_records === undefined ? CHUNK_RECORDS : Number(fields.buffer_size_records) } };
}

function columnMatches(c: ColumnSchema, name: string): boolean {
  // Feldera's canonical_identifier: a quoted name as written, others case-insensitively
  if (name.length >= 2 && name.startsWith('"') && name.endsWith('"')) return c.name === name.slice(1, -1);
  return c.name.toLowerCase() === name.toLowerCase();
}

/** A random id in 0..2^63-1, as Feldera's snowflake encoder draws per stream (decimal text: beyond 2^53). */
function snowflakeStreamId(): string {
  return (randomBytes(8).readBigUInt64BE() & (2n ** 63n - 1n)).toString();
}

/**
 * An encoder field in the query string, as given: a repeated one is refused (serde_urlencoded's duplicate field);
 * its value is parsed by the encoder (jsonEncoding, csvEncoding), as a body's is.
 */
const encoderParam = (schema: JsonSchema) =>
  optional(field<string>({ type: 'string', ...schema }, (v, fail, name) => (Array.isArray(v) ? fail(`query parameter '${name}' is given more than once`) : String(v))));

const bufferSizeRecords = encoderParam({ type: 'integer', minimum: 0, description: 'records per chunk (0: 1)' });

/** The JSON encoder's query parameters (JsonEncoderConfig), in the order they are read. */
export const jsonEncoderQuery = objectOf({
  update_format: encoderParam({ enum: [...UPDATE_FORMATS], description: "JSON output: 'insert_delete' or 'snowflake'" }),
  json_flavor: encoderParam({ enum: JSON_FLAVORS, description: "JSON output: 'default' or 'snowflake'" }),
  buffer_size_records: bufferSizeRecords,
  array: encoderParam({ type: 'boolean', description: 'JSON output is always chunked as arrays' }),
  key_fields: encoderParam({ description: 'a list of columns: only in a JSON body' }),
});

/** The CSV encoder's query parameters (CsvEncoderConfig). */
export const csvEncoderQuery = objectOf({
  delimiter: encoderParam({ description: 'CSV output: one ASCII character' }),
  buffer_size_records: bufferSizeRecords,
});

/** The encoder fields of a query string; the first that does not read is the parse error of the endpoint. */
function encoderFields(declared: Declared<Fields>, input: QueryInput): Fields {
  const problems = new Problems();
  const fields = declared.collect(input.query, problems);
  const first = problems.first();
  if (first) throw parseError(input.endpoint, first.message, input.queryText);
  return fields;
}

export interface QueryInput {
  query: Record<string, string | string[] | undefined>;
  /** The raw query string (error details). */
  queryText: string;
  endpoint: string;
  columns: ColumnSchema[];
  format: OutputFormat;
  backpressure: boolean;
  sendSnapshot: boolean;
}

/** The config from the query string: the format's encoder fields read from it, as Feldera's config_from_http_request. */
export function egressConfigFromQuery(input: QueryInput): EgressConfig {
  const src: Source = { text: input.queryText, name: (f) => `query parameter '${f}'` };
  const fail = (e: string) => parseError(input.endpoint, e, input.queryText);
  const { encoding, config } =
    input.format === 'json'
      ? jsonEncoding(encoderFields(jsonEncoderQuery, input), true, input.endpoint, src, input.columns, fail)
      : csvEncoding(encoderFields(csvEncoderQuery, input), true, src, fail);
  return { encoding, backpressure: input.backpressure, sendSnapshot: input.sendSnapshot, formatConfig: config };
}

/** Does a request body carry a connector configuration? Not when empty or the JSON `null` (whitespace aside). */
export function bodyHasConfig(text: string): boolean {
  const t = text.trim();
  return t !== '' && t !== 'null';
}

/** The query parameters a body may not be mixed with (Feldera's EgressArgs besides send_snapshot). */
export const BODY_EXCLUSIVE_PARAMS = ['format', 'backpressure'] as const;

export interface BodyInput {
  /** The body's text, known to be non-empty. */
  text: string;
  query: Record<string, string | string[] | undefined>;
  endpoint: string;
  columns: ColumnSchema[];
}

/** ConnectorConfig's other fields, type-checked as serde would (their values do not change an HTTP stream). */
const BOOL_FIELDS = ['send_snapshot', 'soft_delete', 'paused', 'enable_output_buffer'];
const COUNT_FIELDS = ['max_batch_size', 'max_worker_batch_size', 'max_queued_records', 'max_queued_bytes', 'max_output_buffer_time_millis', 'max_output_buffer_size_records'];

/** The config from a JSON body holding a whole connector config (today's Feldera). */
export function egressConfigFromBody(input: BodyInput): EgressConfig {
  const { endpoint } = input;
  let body: unknown;
  try {
    body = JSON.parse(input.text);
  } catch (err) {
    throw invalidParam(`the body is not JSON (${(err as Error).message}); send a connector configuration such as {"format": {"name": "json", "config": {"array": true}}}, or no body`);
  }
  const mixed = BODY_EXCLUSIVE_PARAMS.filter((p) => input.query[p] !== undefined);
  if (mixed.length > 0)
    throw invalidParam(`Can't mix configuration between JSON body and query parameters (the query sets ${mixed.map((p) => `'${p}'`).join(' and ')}; put it in the body's connector configuration)`);
  if (!isObject(body)) throw invalidParam(`the body must be a JSON object holding a connector configuration, not ${Array.isArray(body) ? 'an array' : JSON.stringify(body)}`);

  for (const f of BOOL_FIELDS) if (body[f] !== undefined && typeof body[f] !== 'boolean') throw invalidParam(`field '${f}' must be true or false, not ${JSON.stringify(body[f])}`);
  for (const f of COUNT_FIELDS)
    if (body[f] !== undefined && body[f] !== null && !(typeof body[f] === 'number' && Number.isInteger(body[f]) && (body[f] as number) >= 0))
      throw invalidParam(`field '${f}' must be a whole number, not ${JSON.stringify(body[f])}`);
  if (body.labels !== undefined && !(Array.isArray(body.labels) && body.labels.every((l) => typeof l === 'string'))) throw invalidParam("field 'labels' must be a list of strings");
  if (body.index !== undefined && body.index !== null && typeof body.index !== 'string') throw invalidParam(`field 'index' must be a string, not ${JSON.stringify(body.index)}`);

  // transport: http_output (the default when absent)
  let backpressure = false;
  if (body.transport !== undefined) {
    const t = body.transport;
    if (!isObject(t) || typeof t.name !== 'string') throw invalidParam(`field 'transport' must be an object with a 'name', such as {"name": "http_output", "config": {"backpressure": true}}`);
    if (t.name !== 'http_output') throw invalidParam(`Transport configuration must be \`http_output\` (field 'transport.name' is ${JSON.stringify(t.name)})`);
    if (t.config !== undefined && t.config !== null) {
      if (!isObject(t.config)) throw invalidParam(`field 'transport.config' must be an object, not ${JSON.stringify(t.config)}`);
      if (t.config.backpressure !== undefined) backpressure = readBool(t.config.backpressure, false, "field 'transport.config.backpressure'", invalidParam);
    }
  }

  // format: json (whose config must set "array": true) or csv
  const format = body.format;
  if (format !== undefined && format !== null && (!isObject(format) || typeof format.name !== 'string'))
    throw invalidParam(`field 'format' must be an object with a 'name', such as {"name": "json", "config": {"array": true}}`);
  const name = isObject(format) ? (format.name as string) : null;
  if (name !== 'json' && name !== 'csv')
    throw invalidParam(`Format must be configured as \`csv\` or \`json\` (${name === null ? "the body has no field 'format'" : `field 'format.name' is ${JSON.stringify(name)}`})`);
  const formatConfig = (format as Record<string, unknown>).config;
  const src: Source = { text: input.text, name: (f) => `field 'format.config.${f}'` };
  let resolved: { encoding: OutputEncoding; config: Record<string, unknown> };
  if (name === 'json') {
    if (!isObject(formatConfig))
      throw invalidParam(
        `Invalid JSON format configuration: field 'format.config' must be an object, not ${formatConfig === undefined ? 'absent' : JSON.stringify(formatConfig)} (it must set "array": true)`,
      );
    const invalid = (e: string) => invalidParam(`Invalid JSON format configuration: ${e}`);
    // the route's own check (a JsonEncoderConfig that parses, with array set), before the encoder's validation
    if (formatConfig.array !== undefined && typeof formatConfig.array !== 'boolean')
      throw invalid(`invalid value ${JSON.stringify(formatConfig.array)} for ${src.name('array')}: expected true or false`);
    if (formatConfig.array !== true) throw invalidParam(`JSON format configuration must set \`"array": true\` (${src.name('array')} is ${formatConfig.array === undefined ? 'absent' : 'false'})`);
    resolved = jsonEncoding(formatConfig, false, endpoint, src, input.columns, invalid);
  } else {
    if (formatConfig !== undefined && formatConfig !== null && !isObject(formatConfig))
      throw parseError(endpoint, `field 'format.config' must be an object, not ${JSON.stringify(formatConfig)}`, input.text);
    resolved = csvEncoding(isObject(formatConfig) ? formatConfig : {}, false, src, (e) => parseError(endpoint, e, input.text));
  }

  // the controller's checks when it adds the endpoint
  if (body.soft_delete === true)
    throw configError(
      'InvalidSoftDeleteConfig',
      `endpoint '${endpoint}' cannot use the 'soft_delete' property: soft deletes apply to the records a connector ingests, so the property is only valid for input connectors`,
      { endpoint_name: endpoint, error: 'soft deletes apply to the records a connector ingests, so the property is only valid for input connectors' },
    );
  if (typeof body.index === 'string')
    throw configError('UnknownIndex', `Output endpoint '${endpoint}' specifies index '${body.index}', which does not exist: ops serve has no indexes (leave 'index' out)`, {
      endpoint_name: endpoint,
      index_name: body.index,
    });
  return { encoding: resolved.encoding, backpressure, sendSnapshot: body.send_snapshot === true, formatConfig: resolved.config };
}

/** The `format` query parameter: json or csv (400 UnknownOutputFormat otherwise). */
export function outputFormat(format: string): OutputFormat {
  if (format !== 'json' && format !== 'csv') throw Errors.unknownOutputFormat(format);
  return format;
}

/** The query string of a request URL, as sent (error details). */
export function queryString(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? '' : url.slice(i + 1);
}

/**
 * `mode=snapshot` (v0.24's snapshot queries) answers one object written in the default encoding: encoder
 * settings that would change it are refused, naming the parameter, rather than ignored.
 */
export function refuseSnapshotEncoding(endpoint: string, encoding: OutputEncoding): void {
  const d = defaultEncoding(encoding.format);
  const differs: [boolean, string][] = [
    [encoding.updateFormat !== d.updateFormat, 'update_format'],
    [encoding.flavor !== d.flavor, 'json_flavor'],
    [encoding.chunkRecords !== d.chunkRecords, 'buffer_size_records'],
    [encoding.delimiter !== d.delimiter, 'delimiter'],
  ];
  const named = differs.find(([x]) => x);
  if (named) throw notSupported(endpoint, `mode=snapshot answers one object in the default encoding, so query parameter '${named[1]}' cannot change it; it applies to watch streams (mode=watch)`);
}
