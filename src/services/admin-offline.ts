/**
 * Admin actions of `ops serve user|token|key` when no server owns the data dir: the service's own action
 * code (services/admin-actions.ts) run on the data dir's database, opened for the one call and closed.
 * Events of these actions are not published (no server runs to deliver them) and not kept.
 *
 * The data dir's lock is held for the call (a server that starts meanwhile waits its turn, or is refused); when a
 * server holds it, DataDirInUseError is thrown before anything is opened (the caller then goes through the server).
 */
import { pickAction, type AdminArgs } from './admin-actions.js';
import { privateDir } from './data-dir.js';
import { lockDataDir } from './data-dir-lock.js';
import type { AdminServiceName } from './types.js';

export async function runAdminOffline(dataDir: string, service: AdminServiceName, action: string, args: AdminArgs): Promise<unknown> {
  privateDir(dataDir);
  const lock = lockDataDir(dataDir);
  try {
    const opened = service === 'bookmarks' ? (await import('./bookmarks/admin.js')).openBookmarksAdmin(dataDir) : (await import('./notifications/admin.js')).openNotificationsAdmin(dataDir);
    try {
      return await pickAction(opened.actions, service, action)(args);
    } finally {
      opened.close();
    }
  } finally {
    lock.release();
  }
}
