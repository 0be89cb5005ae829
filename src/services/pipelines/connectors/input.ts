/**
 * Input connectors declared in the program (`url_input` with http, https or file URLs; `file_input`
 * with a path), read once when the pipeline starts. A source that cannot be read, or data that does
 * not parse, is a ConnectorError: the start fails with a deployment_error naming the table and cause.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ConnectorDecl, RelationSchema } from '../../../engine/index.js';
import type { TableBinding } from '../ingress/binding.js';
import { parseCsvInput } from '../ingress/csv.js';
import { parseJsonInput, UPDATE_FORMATS, type ParsedInput, type UpdateFormat } from '../ingress/json.js';

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

function causeOf(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  if (e?.cause?.code || e?.cause?.message) return `${e.cause.code ? e.cause.code + ': ' : ''}${e.cause.message ?? ''}`.trim();
  return e?.message ?? String(err);
}

export async function fetchSource(location: string, signal?: AbortSignal): Promise<string> {
  let url: URL | null = null;
  try {
    url = new URL(location);
  } catch {
    url = null;
  }
  if (!url || url.protocol.length <= 2 /* a Windows drive letter */) return readFile(location, 'utf8');
  if (url.protocol === 'file:') return readFile(fileURLToPath(url), 'utf8');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported URL scheme '${url.protocol}'`);
  const timeout = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const res = await fetch(url, { signal: signal ? AbortSignal.any([timeout, signal]) : timeout, redirect: 'follow' });
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new Error(`HTTP status ${res.status}${res.statusText ? ' ' + res.statusText : ''}`);
  }
  return res.text();
}

export async function readInputConnector(
  decl: ConnectorDecl,
  endpointName: string,
  binding: TableBinding,
  signal?: AbortSignal,
): Promise<ConnectorData> {
  const table = binding.table;
  const path = String(decl.transport.config?.path ?? '');
  const details = { table: table.name, endpoint_name: endpointName, transport: decl.transport.name, path };
  let text: string;
  try {
    text = await fetchSource(path, signal);
  } catch (err) {
    throw new ConnectorError(
      `Input connector '${endpointName}' of table '${table.name}' cannot read its source '${path}': ${causeOf(err)}`,
      { ...details, cause: causeOf(err) },
    );
  }
  const format = decl.format?.name ?? 'json';
  const cfg = (decl.format?.config ?? {}) as Record<string, unknown>;
  let parsed: ParsedInput;
  if (format === 'csv') parsed = parseCsvInput(text, binding);
  else {
    const updateFormat = String(cfg.update_format ?? 'insert_delete');
    if (!UPDATE_FORMATS.includes(updateFormat))
      throw new ConnectorError(`Input connector '${endpointName}' of table '${table.name}': unknown update_format '${updateFormat}'`, details);
    parsed = parseJsonInput(text, binding, { updateFormat: updateFormat as UpdateFormat, array: cfg.array === true });
  }
  if (parsed.errorCount > 0) {
    const e = parsed.errors[0]!;
    throw new ConnectorError(
      `Input connector '${endpointName}' of table '${table.name}': data from '${path}' does not parse (${parsed.errorCount} errors); first at line ${e.line}: ${e.description}`,
      { ...details, cause: 'parse errors', errors: parsed.errors.slice(0, 100), num_errors: parsed.errorCount },
    );
  }
  return { endpointName, table, bytes: Buffer.byteLength(text), parsed };
}
