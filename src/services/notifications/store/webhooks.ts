/**
 * Webhook registrations, read through a cache of all of them (every event looks up its subscribers).
 *
 * Rules: every write here drops the cache; so must anyone who rolls back a transaction that wrote
 * webhooks (`forget()`), since the cache may hold the rolled-back change. Deleting a webhook also
 * ends its pending deliveries: that is an outbox transaction (see outbox.ts, `dropWebhook`).
 */
import { ALL_EVENTS } from '../../../webhooks/envelope.js';
import type { Webhook } from '../../../wire/notifications.js';
import type { DB } from './db.js';
import { iso, randomId } from './rows.js';

export interface WebhookWithSecret extends Webhook {
  secret: string;
}

export interface WebhookInput {
  url: string;
  events: string[];
  secret: string;
  description?: string | null;
}

export type WebhookPatch = Partial<WebhookInput>;

interface WebhookRow {
  id: string;
  url: string;
  events: string;
  secret: string;
  description: string | null;
  status: string | null;
  failed_at: number | null;
  created_at: number;
  updated_at: number;
}

function toWebhook(r: WebhookRow): WebhookWithSecret {
  return {
    id: r.id,
    url: r.url,
    events: JSON.parse(r.events) as string[],
    description: r.description,
    status: r.status === 'failed' ? 'failed' : 'active',
    failedAt: r.status === 'failed' ? iso(r.failed_at) : null,
    secret: r.secret,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  };
}

export class Webhooks {
  private cache: WebhookWithSecret[] | null = null;
  private readonly stmts;

  constructor(private readonly db: DB) {
    this.stmts = {
      markFailed: db.prepare("UPDATE webhooks SET status = 'failed', failed_at = ? WHERE id = ?"),
      markActive: db.prepare("UPDATE webhooks SET status = 'active', failed_at = NULL WHERE id = ?"),
    };
  }

  /** Drops the cache (after a rollback that may have touched webhooks). */
  forget(): void {
    this.cache = null;
  }

  private all(): WebhookWithSecret[] {
    if (!this.cache) {
      const rows = this.db.prepare('SELECT * FROM webhooks ORDER BY created_at, rowid').all() as WebhookRow[];
      this.cache = rows.map(toWebhook);
    }
    return this.cache;
  }

  create(input: WebhookInput, now: number): WebhookWithSecret {
    const id = randomId('wh', 8);
    this.db
      .prepare('INSERT INTO webhooks (id, url, events, secret, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(id, input.url, JSON.stringify(input.events), input.secret, input.description ?? null, now, now);
    this.cache = null;
    return this.get(id)!;
  }

  list(): WebhookWithSecret[] {
    return [...this.all()];
  }

  get(id: string): WebhookWithSecret | undefined {
    return this.all().find((w) => w.id === id);
  }

  update(id: string, patch: WebhookPatch, now: number): WebhookWithSecret | undefined {
    const cur = this.get(id);
    if (!cur) return undefined;
    const next = {
      url: patch.url ?? cur.url,
      events: patch.events ?? cur.events,
      secret: patch.secret ?? cur.secret,
      description: patch.description !== undefined ? patch.description : cur.description,
    };
    this.db
      .prepare('UPDATE webhooks SET url = ?, events = ?, secret = ?, description = ?, updated_at = ? WHERE id = ?')
      .run(next.url, JSON.stringify(next.events), next.secret, next.description, now, id);
    this.cache = null;
    return this.get(id);
  }

  /** Deletes the row only; false when there is none. Callers go through Outbox.dropWebhook. */
  remove(id: string): boolean {
    const n = this.db.prepare('DELETE FROM webhooks WHERE id = ?').run(id).changes;
    this.cache = null;
    return n > 0;
  }

  ids(): string[] {
    return this.all().map((w) => w.id);
  }

  subscribersOf(type: string): WebhookWithSecret[] {
    return this.all().filter((w) => w.events.includes(type) || w.events.includes(ALL_EVENTS));
  }

  /** The description: after the 5th failed attempt of a delivery "the webhook is marked failed". */
  markFailed(id: string, now: number): void {
    this.stmts.markFailed.run(now, id);
    this.cache = null;
  }

  /** A webhook marked failed is active again once a delivery to it succeeds. */
  markActive(id: string): void {
    if (this.get(id)?.status !== 'failed') return;
    this.stmts.markActive.run(id);
    this.cache = null;
  }
}
