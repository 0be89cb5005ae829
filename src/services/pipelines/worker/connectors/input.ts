/**
 * Input connectors declared in the program (`url_input` with http, https or file URLs; `file_input`
 * with a path), read once when the pipeline starts. A source that cannot be read, or data that does
 * not parse, is a ConnectorError: the start fails with a deployment_error naming the table and cause.
 *
 * Rules: files only under the connector root (shared/connector-access.ts); http(s) through the outbound-fetch
 * policy with redirects checked per hop; every source streamed with a byte cap (ConnectorAccess.maxBytes),
 * refused once over it; parse-error details quote at most INVALID_TEXT_CHARS of each bad record.
 */
import { redactLocation } from '../../../redact.js';
import { open } from 'node:fs/promises';
import { policyDispatcher, refusedCause, undici } from '../../../net/fetch-policy.js';
import { AccessRefused, isFileLocation, READ_FLAGS, resolveReadPath, type ConnectorAccess } from '../../shared/connector-access.js';
import type { ConnectorDecl, RelationSchema } from '../../../../engine/index.js';
import type { TableBinding } from '../ingress/binding.js';
import { parseCsvInput } from '../ingress/csv.js';
import { parseJsonInput, type ParsedInput } from '../ingress/json.js';
import { UPDATE_FORMATS, type UpdateFormat } from '../../shared/update-formats.js';

export const FETCH_TIMEOUT_MS = 30_000;

export class ConnectorError extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface ConnectorData {
  endpointName: string;
  table: RelationSchema;
  bytes: number;
  parsed: ParsedInput;
}

/** At most this many characters of a bad record are quoted in a deployment error. */
export const INVALID_TEXT_CHARS = 100;
/** At most this many parse errors are listed in a deployment error. */
export const MAX_LISTED_ERRORS = 10;

function causeOf(err: unknown): string {
  const refused = refusedCause(err);
  if (refused) return refused.message;
  if (err instanceof AccessRefused || err instanceof SourceTooLarge) return err.message;
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.cause?.code || e?.cause?.message) return `${e.cause.code ? e.cause.code + ': ' : ''}${e.cause.message ?? ''}`.trim();
  return e?.message ?? String(err);
}

class SourceTooLarge extends Error {
  constructor(maxBytes: number) {
    super(`the source is larger than the connector limit of ${maxBytes} bytes`);
  }
}

/** Reads chunks into one string, refusing once more than maxBytes arrived. */
async function collect(chunks: AsyncIterable<Uint8Array>, maxBytes: number, stop: () => void): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > maxBytes) {
      stop();
      throw new SourceTooLarge(maxBytes);
    }
    parts.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
  }
  return Buffer.concat(parts, size).toString('utf8');
}

async function readFileSource(location: string, access: ConnectorAccess): Promise<string> {
  const path = await resolveReadPath(location, access);
  const fh = await open(path, READ_FLAGS);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new AccessRefused(`'${location}' is not a regular file`);
    if (st.size > access.maxBytes) throw new SourceTooLarge(access.maxBytes);
    const stream = fh.createReadStream({ autoClose: false });
    return await collect(stream, access.maxBytes, () => stream.destroy());
  } finally {
    await fh.close();
  }
}

async function readHttpSource(url: URL, access: ConnectorAccess, signal?: AbortSignal): Promise<string> {
  const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const dispatcher = policyDispatcher(access.fetchPolicy, { maxRedirections: 5 });
  try {
    const res = await undici().request(url, { dispatcher, signal: signal ? AbortSignal.any([timeout, signal]) : timeout });
    // A body destroyed below, or aborted later by the signal (a shutdown, the timeout), errors with no reader
    // attached; unheard, that error would be an uncaught exception in the pipeline's worker. Reads still see
    // errors through their iterator.
    res.body.on('error', () => {});
    if (res.statusCode >= 400) {
      res.body.destroy();
      throw new Error(`HTTP status ${res.statusCode}`);
    }
    if (res.statusCode >= 300) {
      res.body.destroy();
      throw new Error(`HTTP status ${res.statusCode} (too many redirects)`);
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > access.maxBytes) {
      res.body.destroy();
      throw new SourceTooLarge(access.maxBytes);
    }
    return await collect(res.body, access.maxBytes, () => res.body.destroy());
  } finally {
    void dispatcher.destroy().catch(() => {});
  }
}

/** Reads a connector source (a file under the root, or an http(s) URL under the fetch policy). */
export async function fetchSource(location: string, access: ConnectorAccess, signal?: AbortSignal): Promise<string> {
  if (isFileLocation(location)) return readFileSource(location, access);
  const url = new URL(location);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported URL scheme '${url.protocol}'`);
  return readHttpSource(url, access, signal);
}

function sourceError(endpointName: string, tableName: string, path: string, err: unknown, details: Record<string, unknown>): ConnectorError {
  return new ConnectorError(`Input connector '${endpointName}' of table '${tableName}' cannot read its source '${redactLocation(path)}': ${causeOf(err)}`, {
    ...details,
    cause: causeOf(err),
  });
}

/** Checks, before anything is opened, that a file source lies under the connector root. Throws ConnectorError. */
export async function checkInputSource(decl: ConnectorDecl, endpointName: string, tableName: string, access: ConnectorAccess): Promise<void> {
  const path = String(decl.transport.config?.path ?? '');
  if (!isFileLocation(path)) return;
  try {
    await resolveReadPath(path, access);
  } catch (err) {
    throw sourceError(endpointName, tableName, path, err, { table: tableName, endpoint_name: endpointName, transport: decl.transport.name, path: redactLocation(path) });
  }
}

function capText<T extends string | null>(text: T, chars: number): T {
  if (text === null || text.length <= chars) return text;
  return (text.slice(0, chars) + '…') as T;
}

export async function readInputConnector(decl: ConnectorDecl, endpointName: string, binding: TableBinding, access: ConnectorAccess, signal?: AbortSignal): Promise<ConnectorData> {
  const table = binding.table;
  const path = String(decl.transport.config?.path ?? '');
  // a url_input URL may carry a token: errors and logs show it redacted
  const details = { table: table.name, endpoint_name: endpointName, transport: decl.transport.name, path: redactLocation(path) };
  let text: string;
  try {
    text = await fetchSource(path, access, signal);
  } catch (err) {
    throw sourceError(endpointName, table.name, path, err, details);
  }
  const format = decl.format?.name ?? 'json';
  const cfg = (decl.format?.config ?? {}) as Record<string, unknown>;
  let parsed: ParsedInput;
  if (format === 'csv') parsed = parseCsvInput(text, binding);
  else {
    const updateFormat = String(cfg.update_format ?? 'insert_delete');
    if (!UPDATE_FORMATS.includes(updateFormat)) throw new ConnectorError(`Input connector '${endpointName}' of table '${table.name}': unknown update_format '${updateFormat}'`, details);
    parsed = parseJsonInput(text, binding, { updateFormat: updateFormat as UpdateFormat, array: cfg.array === true });
  }
  if (parsed.errorCount > 0) {
    const e = parsed.errors[0]!;
    throw new ConnectorError(
      `Input connector '${endpointName}' of table '${table.name}': data from '${redactLocation(path)}' does not parse (${parsed.errorCount} errors); first at line ${e.line}: ${capText(e.description, 2 * INVALID_TEXT_CHARS)}`,
      {
        ...details,
        cause: 'parse errors',
        errors: parsed.errors
          .slice(0, MAX_LISTED_ERRORS)
          .map((x) => ({ ...x, description: capText(x.description, 2 * INVALID_TEXT_CHARS), invalid_text: capText(x.invalid_text, INVALID_TEXT_CHARS) })),
        num_errors: parsed.errorCount,
      },
    );
  }
  return { endpointName, table, bytes: Buffer.byteLength(text), parsed };
}
