/** Opens the bookmark database (SQLite, WAL, synchronous FULL, foreign keys) and applies the migrations in order. */
import type Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openCheckedDatabase, type OpenStoreOptions } from '../../store-guard.js';

export type DB = Database.Database;

export const DB_FILE = 'bookmarks.sqlite';

/**
 * 4: one list per name per user, enforced by a unique index as tags are (issue 33). Lists that already
 * share a name with an older list of the same user (two imports at once made them) are renamed, never
 * merged or dropped: the oldest keeps the name, the others become "name (2)", "name (3)", ... (the first
 * number free for that user), keeping their links, description and visibility. Trashed lists count too.
 */
function uniqueListNames(db: DB): void {
  const dups = db.prepare('SELECT id, user_id, name FROM lists l WHERE EXISTS (SELECT 1 FROM lists o WHERE o.user_id = l.user_id AND o.name = l.name AND o.id < l.id) ORDER BY id').all() as {
    id: number;
    user_id: number;
    name: string;
  }[];
  const taken = db.prepare('SELECT 1 FROM lists WHERE user_id = ? AND name = ?').pluck();
  const rename = db.prepare('UPDATE lists SET name = ? WHERE id = ?');
  for (const d of dups) {
    let n = 2;
    while (taken.get(d.user_id, `${d.name} (${n})`)) n++;
    rename.run(`${d.name} (${n})`, d.id);
  }
  db.exec('DROP INDEX lists_user_name; CREATE UNIQUE INDEX lists_user_name ON lists(user_id, name);');
}

const MIGRATIONS: (string | ((db: DB) => void))[] = [
  // 1: initial schema
  `
  CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    default_visibility INTEGER NOT NULL DEFAULT 3,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE tokens (
    id INTEGER PRIMARY KEY,
    user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    system INTEGER NOT NULL DEFAULT 0,
    private_access INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    last_used_at TEXT
  );
  CREATE TABLE links (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT,
    icon TEXT,
    visibility INTEGER NOT NULL CHECK (visibility IN (1, 2, 3)),
    status INTEGER NOT NULL DEFAULT 1 CHECK (status IN (1, 2, 3)),
    check_disabled INTEGER NOT NULL DEFAULT 0,
    last_checked_at TEXT,
    thumbnail TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT
  );
  CREATE UNIQUE INDEX links_user_url ON links(user_id, url);
  CREATE INDEX links_created ON links(created_at, id) WHERE deleted_at IS NULL;
  CREATE INDEX links_updated ON links(updated_at, id) WHERE deleted_at IS NULL;
  CREATE INDEX links_title ON links(title, id) WHERE deleted_at IS NULL;
  CREATE INDEX links_check ON links(last_checked_at, id) WHERE deleted_at IS NULL AND check_disabled = 0;
  CREATE INDEX links_trash ON links(user_id, deleted_at) WHERE deleted_at IS NOT NULL;
  CREATE TABLE lists (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    description TEXT,
    visibility INTEGER NOT NULL CHECK (visibility IN (1, 2, 3)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT
  );
  CREATE INDEX lists_user_name ON lists(user_id, name);
  CREATE TABLE tags (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    visibility INTEGER NOT NULL CHECK (visibility IN (1, 2, 3)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT
  );
  CREATE UNIQUE INDEX tags_user_name ON tags(user_id, name);
  CREATE TABLE link_lists (
    link_id INTEGER NOT NULL REFERENCES links(id) ON DELETE CASCADE,
    list_id INTEGER NOT NULL REFERENCES lists(id) ON DELETE CASCADE,
    PRIMARY KEY (link_id, list_id)
  ) WITHOUT ROWID;
  CREATE INDEX link_lists_list ON link_lists(list_id, link_id);
  CREATE TABLE link_tags (
    link_id INTEGER NOT NULL REFERENCES links(id) ON DELETE CASCADE,
    tag_id INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
    PRIMARY KEY (link_id, tag_id)
  ) WITHOUT ROWID;
  CREATE INDEX link_tags_tag ON link_tags(tag_id, link_id);
  CREATE TABLE notes (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    link_id INTEGER NOT NULL REFERENCES links(id) ON DELETE CASCADE,
    note TEXT NOT NULL,
    visibility INTEGER NOT NULL CHECK (visibility IN (1, 2, 3)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT
  );
  CREATE INDEX notes_link ON notes(link_id);
  CREATE TABLE user_events (
    id INTEGER PRIMARY KEY,
    type TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    data TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  `,
  // 2: fewer indexes on links: every index costs each create a page write. Ordering by updated_at and the
  // checker's pick (hourly) do without; created_at (the default order), title and the per-user URL keep one.
  `
  DROP INDEX links_updated;
  DROP INDEX links_check;
  `,
  // 3: user events go straight onto the server's EventBus (admin.ts, through the admin route): no outbox table
  `
  DROP TABLE user_events;
  `,
  uniqueListNames,
];

export function migrate(db: DB): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      const step = MIGRATIONS[v]!;
      if (typeof step === 'string') db.exec(step);
      else step(db);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

/** Opens (checked first, see store-guard.ts: a damaged file throws StoreDamagedError) and migrates the store. */
export function openDb(dir: string, options: OpenStoreOptions = {}): DB {
  mkdirSync(dir, { recursive: true });
  const db = openCheckedDatabase(join(dir, DB_FILE), 'bookmarks', options);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Checkpoint every ~40 MB of WAL instead of 4 MB: pages rewritten by consecutive writes (the newest index
  // leaves) reach the database file once per checkpoint, so fewer and larger checkpoints write far less.
  db.pragma('wal_autocheckpoint = 10000');
  migrate(db);
  return db;
}

const cache = new WeakMap<DB, Map<string, Database.Statement>>();

/** A prepared statement, cached per database. */
export function q(db: DB, sql: string): Database.Statement {
  let m = cache.get(db);
  if (!m) cache.set(db, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = db.prepare(sql)));
  return s;
}
