/** How bookmark objects look in tables and TSV: words for codes, relative times on a terminal, short URLs. */
import type { Column } from '../../core/output.js';
import type { Link, List, Note, Tag } from '../../clients/bookmarks.js';
import { statusName, visibilityName } from '../../clients/bookmarks/visibility.js';

import { relativeTime } from '../../core/time-text.js';

export { relativeTime };

/** On a terminal the scheme and "www." add nothing; the column is then truncated to the width. */
export function shortUrl(url: string): string {
  return url.replace(/^https?:\/\//i, '').replace(/^www\./i, '');
}

export type Mode = 'table' | 'tsv' | 'json';

function time(mode: Mode, iso: unknown): string {
  if (typeof iso !== 'string') return '';
  return mode === 'table' ? relativeTime(iso) : iso;
}

const statusStyle = (t: string, row: { status?: number }, c: import('chalk').ChalkInstance) => (row.status === 3 ? c.red(t) : row.status === 2 ? c.yellow(t) : c.green(t));

export function linkColumns(mode: Mode, extra: { tags?: boolean } = {}): Column<Link>[] {
  const cols: Column<Link>[] = [
    { header: 'id', key: 'id' },
    { header: 'title', key: 'title', shrink: true, style: (t, _r, c) => c.bold(t) },
    { header: 'url', get: (l) => (mode === 'table' ? shortUrl(l.url) : l.url), shrink: true, style: (t, _r, c) => c.cyan(t) },
    { header: 'visibility', get: (l) => visibilityName(l.visibility) },
    { header: 'status', get: (l) => statusName(l.status), style: statusStyle },
  ];
  if (extra.tags) cols.push({ header: 'tags', get: (l) => (l.tags ?? []).map((t) => t.name).join(','), shrink: true });
  cols.push({ header: 'created', get: (l) => time(mode, l.created_at), style: (t, _r, c) => c.dim(t) });
  return cols;
}

export function linkFields(mode: Mode): Column<Link>[] {
  return [
    { header: 'id', key: 'id' },
    { header: 'title', key: 'title' },
    { header: 'url', key: 'url' },
    { header: 'description', key: 'description' },
    { header: 'visibility', get: (l) => visibilityName(l.visibility) },
    { header: 'status', get: (l) => statusName(l.status), style: statusStyle },
    { header: 'tags', get: (l) => (l.tags ?? []).map((t) => t.name).join(', ') },
    { header: 'lists', get: (l) => (l.lists ?? []).map((t) => t.name).join(', ') },
    { header: 'check disabled', get: (l) => (l.check_disabled === undefined ? '' : l.check_disabled ? 'yes' : 'no') },
    { header: 'last checked', get: (l) => time(mode, l.last_checked_at) },
    { header: 'created', get: (l) => time(mode, l.created_at) },
    { header: 'updated', get: (l) => time(mode, l.updated_at) },
  ];
}

export function collectionColumns(mode: Mode, kind: 'lists' | 'tags'): Column<List>[] {
  const cols: Column<List>[] = [
    { header: 'id', key: 'id' },
    { header: 'name', key: 'name', style: (t, _r, c) => c.bold(t) },
  ];
  if (kind === 'lists') cols.push({ header: 'description', key: 'description', shrink: true });
  cols.push({ header: 'visibility', get: (l) => visibilityName(l.visibility) });
  cols.push({ header: 'created', get: (l) => time(mode, l.created_at), style: (t, _r, c) => c.dim(t) });
  return cols;
}

export function collectionFields(mode: Mode, kind: 'lists' | 'tags'): Column<List>[] {
  const cols: Column<List>[] = [
    { header: 'id', key: 'id' },
    { header: 'name', key: 'name' },
  ];
  if (kind === 'lists') cols.push({ header: 'description', key: 'description' });
  cols.push(
    { header: 'visibility', get: (l) => visibilityName(l.visibility) },
    { header: 'created', get: (l) => time(mode, l.created_at) },
    { header: 'updated', get: (l) => time(mode, l.updated_at) },
  );
  return cols;
}

export function noteColumns(mode: Mode): Column<Note>[] {
  return [
    { header: 'id', key: 'id' },
    { header: 'link', key: 'link_id' },
    { header: 'note', key: 'note', shrink: true },
    { header: 'visibility', get: (n) => visibilityName(n.visibility) },
    { header: 'created', get: (n) => time(mode, n.created_at), style: (t, _r, c) => c.dim(t) },
  ];
}

export function noteFields(mode: Mode): Column<Note>[] {
  return [
    { header: 'id', key: 'id' },
    { header: 'link', key: 'link_id' },
    { header: 'note', key: 'note' },
    { header: 'visibility', get: (n) => visibilityName(n.visibility) },
    { header: 'created', get: (n) => time(mode, n.created_at) },
    { header: 'updated', get: (n) => time(mode, n.updated_at) },
  ];
}

export type { Tag };
