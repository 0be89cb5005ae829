/**
 * Pure text rendering for `ops pipe`: SQL compiler messages as `FILE:LINE:COL: message` with the source
 * line and a caret under the columns at fault, relative times, and a readable form of one change.
 */
import { relativeTime } from '../../core/time-text.js';
import type { SqlCompilerMessage } from '../../clients/pipelines.js';
import { sanitize } from '../../core/sanitize.js';
import { jsonText } from '../../core/json-exact.js';

/** The message text: the error type first when the message does not already say it. */
export function messageText(m: SqlCompilerMessage): string {
  const message = sanitize(m.message ?? '').trim();
  const type = sanitize(m.error_type ?? '').trim();
  if (!type || message.toLowerCase().startsWith(type.toLowerCase())) return message || type;
  if (!message) return type;
  return `${type}: ${message}`;
}

/**
 * `FILE:LINE:COL: message`, then the source line and a caret line. Columns are 1-based; tabs in the
 * source are kept in the caret's indentation so the caret lines up in a terminal.
 */
export function renderSqlMessage(m: SqlCompilerMessage, file: string, source: string): string {
  const line = Math.max(1, m.start_line_number || 1);
  const col = Math.max(1, m.start_column || 1);
  const head = `${file}:${line}:${col}: ${m.warning ? 'warning: ' : ''}${messageText(m)}`;
  const lines = source.split(/\r?\n/);
  const text = lines[line - 1];
  if (text === undefined) return head;
  // Control characters (but tabs) become '?' so that columns keep their positions.
  // eslint-disable-next-line no-control-regex
  const shown = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '?');
  const chars = [...shown];
  const indent = chars
    .slice(0, col - 1)
    .map((c) => (c === '\t' ? '\t' : ' '))
    .join('');
  let width = 1;
  if ((m.end_line_number || line) === line && m.end_column >= col) width = m.end_column - col + 1;
  width = Math.max(1, Math.min(width, Math.max(1, chars.length - (col - 1))));
  return `${head}\n${shown}\n${indent}${'^'.repeat(width)}`;
}

export function renderSqlMessages(messages: readonly SqlCompilerMessage[], file: string, source: string): string {
  return messages.map((m) => renderSqlMessage(m, file, source)).join('\n');
}

/** How long ago, as every tree says it (core/time-text.ts). */
export function ago(iso: string | undefined, now = Date.now()): string {
  return iso && Number.isFinite(Date.parse(iso)) ? relativeTime(iso, now) : '';
}

/** `a=1 b="x"` for a row, for people (numbers with every digit the server sent). */
export function rowText(row: Record<string, unknown>): string {
  return Object.entries(row)
    .map(([k, v]) => `${sanitize(k)}=${sanitize(jsonText(v) ?? 'null')}`)
    .join(' ');
}

/** Flatten an object into `a.b.c -> value` pairs (for stats on a terminal and TSV). */
export function flatten(value: unknown, prefix = '', out: [string, unknown][] = []): [string, unknown][] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out.push([prefix, value]);
  return out;
}
