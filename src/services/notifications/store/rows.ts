/** Helpers shared by the store modules for their rows: generated ids and stored times as the API shows them. */
import { randomBytes } from 'node:crypto';

/** A stored time (ms since the epoch) as an ISO 8601 string; null stays null. */
export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A random id with a prefix naming its kind ("wh_…", "dlv_…"). */
export const randomId = (prefix: string, bytes: number) => `${prefix}_${randomBytes(bytes).toString('hex')}`;
