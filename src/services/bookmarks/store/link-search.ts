/**
 * What a link search asks for (LinkAce's search filters and order), shared by the links store and the search
 * index that answers it. Types only.
 */

export type Dir = 'asc' | 'desc';

export interface LinkSearch {
  query?: string | null;
  searchTitle?: boolean;
  searchDescription?: boolean;
  visibility?: number | null;
  brokenOnly?: boolean;
  emptyLists?: boolean;
  onlyLists?: number[];
  emptyTags?: boolean;
  onlyTags?: number[];
  /** v1: only the caller's own links */
  ownOnly?: boolean;
  /** v1 is_private: true = private only, false = public and internal only */
  isPrivate?: boolean | null;
  order?: { by: string; dir: Dir } | null;
}
