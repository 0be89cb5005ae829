/**
 * The delivery worker: takes due deliveries from the outbox and POSTs them, signed. Each webhook
 * (receiver) has its own lane with a bounded number of attempts in flight, so a slow or dead
 * receiver only ever holds its own lane and never delays deliveries to the others.
 *
 * Time comes from an injected Clock; `runDue()` does one pass and waits for it (unit tests with a
 * manual clock), `start()` runs passes in the background, woken by `kick()` and by a timer set to
 * the next due time.
 */
import { setMaxListeners } from 'node:events';
import { Agent, type Dispatcher } from 'undici';
import { DELIVERY_TIMEOUT_MS, systemClock, type Clock } from '../../webhooks/schedule.js';
import { sendSigned, type AttemptResult } from '../../webhooks/send.js';
import type { DueDelivery, NotifyStore } from './store.js';

export interface WorkerOptions {
  store: NotifyStore;
  clock?: Clock;
  /** Multiplier for the retry delays (1 = real schedule). */
  retryScale?: number;
  /** A receiver must answer within this (default 5 s). */
  timeoutMs?: number;
  /** Attempts in flight per receiver (default 8). */
  concurrencyPerReceiver?: number;
  dispatcher?: Dispatcher;
  onError?: (err: unknown) => void;
  /** Called after each finished attempt (for logs and tests). */
  onAttempt?: (d: DueDelivery, result: AttemptResult) => void;
}

const MAX_TIMER_MS = 2_147_483_000;

export class DeliveryWorker {
  private readonly store: NotifyStore;
  private readonly clock: Clock;
  private readonly scale: number;
  private readonly timeoutMs: number;
  private readonly perLane: number;
  private readonly dispatcher: Dispatcher;
  private readonly ownDispatcher: boolean;
  private readonly lanes = new Map<string, number>();
  private readonly inflight = new Set<Promise<void>>();
  private abort = DeliveryWorker.newAbort();
  private running = false;
  private scheduled = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: WorkerOptions) {
    this.store = opts.store;
    this.clock = opts.clock ?? systemClock;
    this.scale = opts.retryScale ?? 1;
    this.timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.perLane = Math.max(1, opts.concurrencyPerReceiver ?? 8);
    this.ownDispatcher = !opts.dispatcher;
    this.dispatcher =
      opts.dispatcher ??
      new Agent({ connections: this.perLane, keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, pipelining: 1 });
  }

  private static newAbort(): AbortController {
    const c = new AbortController();
    setMaxListeners(0, c.signal); // one listener per attempt in flight
    return c;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Attempts currently in flight, per webhook id. */
  laneLoad(): Record<string, number> {
    return Object.fromEntries(this.lanes);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.store.recoverInterrupted(this.clock.now());
    this.kick();
  }

  /** Ask for a pass soon (new event, redelivery, a finished attempt). */
  kick(): void {
    if (!this.running || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.running) this.safePass();
    });
  }

  /** One pass now, waiting for the attempts it started (for tests driving a manual clock). */
  async runDue(): Promise<number> {
    const started = this.pass();
    await Promise.allSettled(started);
    return started.length;
  }

  /** Stops: no new attempts; attempts in flight are aborted and recorded as interrupted. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort();
    await Promise.allSettled([...this.inflight]);
    this.abort = DeliveryWorker.newAbort();
    if (this.ownDispatcher) await this.dispatcher.close().catch(() => {});
  }

  private safePass(): void {
    try {
      this.pass();
    } catch (err) {
      this.opts.onError?.(err);
      // Try again a little later rather than spin on a persistent error.
      this.arm(this.clock.now() + 1000);
    }
  }

  private pass(): Promise<void>[] {
    const now = this.clock.now();
    const started: Promise<void>[] = [];
    let nextDue = Infinity;
    for (const webhookId of this.store.webhookIds()) {
      const busy = this.lanes.get(webhookId) ?? 0;
      const free = this.perLane - busy;
      if (free <= 0) continue; // a finishing attempt kicks a new pass
      const due = this.store.takeDue(webhookId, now, free, now + this.timeoutMs + 1000);
      for (const d of due) started.push(this.attempt(d));
      if (due.length < free) {
        const t = this.store.nextDueFor(webhookId);
        if (t !== null && t > now) nextDue = Math.min(nextDue, t);
      }
    }
    if (this.running) this.arm(nextDue);
    return started;
  }

  private arm(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.running || !Number.isFinite(at)) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, at - this.clock.now()));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kick();
    }, delay);
    this.timer.unref?.();
  }

  private attempt(d: DueDelivery): Promise<void> {
    this.lanes.set(d.webhookId, (this.lanes.get(d.webhookId) ?? 0) + 1);
    const signal = this.abort.signal;
    const p = (async () => {
      try {
        const result = await sendSigned({
          url: d.url,
          body: d.body,
          secret: d.secret,
          timeoutMs: this.timeoutMs,
          dispatcher: this.dispatcher,
          signal,
          headers: {
            'x-ops-event-id': d.eventId,
            'x-ops-event-type': d.eventType,
            'x-ops-delivery-id': d.id,
            'x-ops-attempt': String(d.n),
          },
        });
        const interrupted = signal.aborted && !result.ok;
        this.store.finishAttempt(d, result, this.clock.now(), this.scale, interrupted);
        this.opts.onAttempt?.(d, result);
      } catch (err) {
        this.opts.onError?.(err);
      } finally {
        const left = (this.lanes.get(d.webhookId) ?? 1) - 1;
        if (left <= 0) this.lanes.delete(d.webhookId);
        else this.lanes.set(d.webhookId, left);
        this.kick();
      }
    })();
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
    return p;
  }
}
