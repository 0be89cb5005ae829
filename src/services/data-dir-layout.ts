/**
 * The names of what `ops serve` keeps at the top of a data dir, in one place (no imports: the CLI's commands read
 * them without loading any service). Each service keeps its stores in its own folder, named as the service.
 */

/** The lock file whose exclusive lock the server holds (data-dir-lock.ts). */
export const LOCK_FILE = 'serve.lock';
/** Who holds the lock and where it answers (server-file.ts). */
export const SERVER_FILE = 'server.json';
/** The output of the server started with `ops serve --detach`, and the previous start's. */
export const LOG_FILE = 'serve.log';
export const OLD_LOG_FILE = 'serve.log.1';
/** The default connector root of pipeline file connectors. */
export const CONNECTOR_DIR = 'files';
/** One folder per service, named as the service module. */
export const SERVICE_DIRS = ['bookmarks', 'pipelines', 'notifications'] as const;
