/** Shapes of the bookmark API (LinkAce 2.x and `ops serve`). Fields a server may omit are optional. */

export type Visibility = 1 | 2 | 3;
export type LinkStatus = 1 | 2 | 3;

export interface Tag {
  id: number;
  user_id?: number;
  name: string;
  visibility?: number;
  created_at?: string;
  updated_at?: string;
  deleted_at?: string | null;
  [key: string]: unknown;
}

export interface List extends Tag {
  description?: string | null;
}

export interface Link {
  id: number;
  user_id?: number;
  url: string;
  title: string;
  description?: string | null;
  icon?: string | null;
  visibility?: number;
  status?: number;
  check_disabled?: boolean;
  last_checked_at?: string | null;
  thumbnail?: string | null;
  created_at?: string;
  updated_at?: string;
  deleted_at?: string | null;
  tags?: Tag[];
  lists?: List[];
  [key: string]: unknown;
}

export interface Note {
  id: number;
  link_id: number;
  user_id?: number;
  note: string;
  visibility?: number;
  created_at?: string;
  updated_at?: string;
  deleted_at?: string | null;
  [key: string]: unknown;
}

/** One page of a list, whatever envelope the server used. */
export interface Page<T> {
  items: T[];
  page: number;
  lastPage: number;
  perPage: number;
  total: number;
  /** Whether another page follows. */
  hasNext: boolean;
  /** Which envelope the server answered with: ours (`meta` object) or LinkAce's flat Laravel paginator. */
  shape: 'envelope' | 'flat' | 'array';
}

/** What the server offers, found out once per client. */
export interface ServerInfo {
  /** `/api/version` answer, or null when the server has no such route (LinkAce before 2.1). */
  version: string | null;
  /** `ops` = `ops serve` (or another server with the v2 envelope); `linkace` = a real LinkAce 2.x. */
  flavor: 'ops' | 'linkace';
  /** An import endpoint (v1 POST /import, multipart `file`). */
  serverImport: boolean;
  /** The import endpoint takes `dry_run=1` (runs the import and rolls it back; `ops serve`). */
  serverImportDryRun?: boolean;
  /** An export endpoint (v1 GET /export); `ops serve` also answers `format=json` with the whole document. */
  serverExport?: boolean;
  /** `GET /links/check` without `url` runs a health check. */
  healthCheck: boolean;
  /** `/api/v1` exists. */
  v1: boolean;
}

export type ModelKind = 'links' | 'lists' | 'tags' | 'notes';

export interface LinkInput {
  url?: string;
  title?: string | null;
  description?: string | null;
  icon?: string | null;
  visibility?: number;
  check_disabled?: boolean;
  tags?: (number | string)[];
  lists?: (number | string)[];
}

export interface CollectionInput {
  name?: string;
  description?: string | null;
  visibility?: number;
}

export interface SearchLinksQuery {
  query?: string;
  search_title?: boolean;
  search_description?: boolean;
  visibility?: number;
  broken_only?: boolean;
  only_lists?: number[];
  only_tags?: number[];
  empty_lists?: boolean;
  empty_tags?: boolean;
  /** title:asc, url:desc, created_at:desc, ... */
  order_by?: string;
}
