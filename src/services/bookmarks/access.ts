/**
 * Who is calling and what they may see or change. Visibility: 1 public, 2 internal, 3 private.
 * - a user sees their own items of any visibility and other users' public and internal items;
 * - a system token sees public and internal items, private ones only with private access;
 * - a guest (when guest access is on) sees public items only;
 * - as LinkAce 2.x's policies (app/Policies/*Policy.php): a user may update (and attach to a link) their own
 *   items and other users' items that are not private; only the owner may delete, restore or force-delete;
 * - system tokens and guests change nothing.
 */
export const PUBLIC = 1;
export const INTERNAL = 2;
export const PRIVATE = 3;

export type Caller = { kind: 'user'; userId: number; tokenId: number } | { kind: 'system'; privateAccess: boolean; tokenId: number } | { kind: 'guest'; key: string };

export interface Owned {
  user_id: number;
  visibility: number;
}

export function canView(caller: Caller, item: Owned): boolean {
  switch (caller.kind) {
    case 'user':
      return item.user_id === caller.userId || item.visibility !== PRIVATE;
    case 'system':
      return caller.privateAccess || item.visibility !== PRIVATE;
    case 'guest':
      return item.visibility === PUBLIC;
  }
}

/** LinkAce's `update` policy: the owner, or any user when the item is not private. Also who may attach a list or tag. */
export function canUpdate(caller: Caller, item: Owned): boolean {
  return caller.kind === 'user' && (item.user_id === caller.userId || item.visibility !== PRIVATE);
}

/** LinkAce's `delete`, `restore` and `forceDelete` policies: the owner only. */
export function canDelete(caller: Caller, item: { user_id: number }): boolean {
  return caller.kind === 'user' && item.user_id === caller.userId;
}

/** The id of the calling user, or null for system tokens and guests. */
export function userIdOf(caller: Caller): number | null {
  return caller.kind === 'user' ? caller.userId : null;
}

/** An SQL condition (with its parameters) selecting the rows of `alias` the caller may see. */
export function visibleSql(caller: Caller, alias: string): { sql: string; params: unknown[] } {
  const a = alias ? `${alias}.` : '';
  switch (caller.kind) {
    case 'user':
      return { sql: `(${a}user_id = ? OR ${a}visibility <> 3)`, params: [caller.userId] };
    case 'system':
      return caller.privateAccess ? { sql: '1 = 1', params: [] } : { sql: `${a}visibility <> 3`, params: [] };
    case 'guest':
      return { sql: `${a}visibility = 1`, params: [] };
  }
}

/** A key naming the caller's visibility scope (for caches of counts). */
export function scopeKey(caller: Caller): string {
  switch (caller.kind) {
    case 'user':
      return `u${caller.userId}`;
    case 'system':
      return caller.privateAccess ? 'sp' : 's';
    case 'guest':
      return 'g';
  }
}
