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
import type { Dispatcher } from 'undici';
import { DELIVERY_TIMEOUT_MS, systemClock, type Clock } from '../../webhooks/schedule.js';
import { sendSigned, type AttemptResult } from '../../webhooks/send.js';
import type { DueDelivery, FinishedAttempt, NotifyStore } from './store/index.js';
import { policyDispatcher, type FetchPolicy } from '../net/fetch-policy.js';

export interface WorkerOptions {
  store: NotifyStore;
  clock?: Clock;
  /** Multiplier for the retry delays (1 = real schedule). */
  retryScale?: number;
  /** A receiver must answer within this (default 5 s). */
  timeoutMs?: number;
  /** Attempts in flight per receiver (default 16). */
  concurrencyPerReceiver?: number;
  dispatcher?: Dispatcher;
  /** Without a dispatcher: the outbound-fetch policy of the one made here (default any). */
  fetchPolicy?: FetchPolicy;
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
  /** Finished attempts waiting for the next group commit (one transaction per event-loop turn). */
  private finished: { item: FinishedAttempt; d: DueDelivery; result: AttemptResult; done: () => void }[] = [];
  private flushScheduled = false;

  constructor(private readonly opts: WorkerOptions) {
    this.store = opts.store;
    this.clock = opts.clock ?? systemClock;
    this.scale = opts.retryScale ?? 1;
    this.timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.perLane = Math.max(1, opts.concurrencyPerReceiver ?? 16);
    this.ownDispatcher = !opts.dispatcher;
    this.dispatcher = opts.dispatcher ?? policyDispatcher(opts.fetchPolicy ?? 'any', { connections: this.perLane, keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, pipelining: 1 });
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
    const due = this.store.atomically(() => this.takeAll(this.clock.now()));
    const started = due.map((d) => this.launch(d));
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
    this.flush();
    this.abort = DeliveryWorker.newAbort();
    if (this.ownDispatcher) await this.dispatcher.close().catch(() => {});
  }

  private safePass(): void {
    try {
      const due = this.store.atomically(() => this.takeAll(this.clock.now()));
      for (const d of due) void this.launch(d); // tracked in inflight; never rejects
      this.armNext();
    } catch (err) {
      this.opts.onError?.(err);
      // Try again a little later rather than spin on a persistent error.
      this.arm(this.clock.now() + 1000);
    }
  }

  /**
   * Leases due deliveries for every lane with room (call inside a transaction). Remembers the
   * earliest future due time of the lanes that are not full, for the timer.
   */
  private takeAll(now: number): DueDelivery[] {
    const out: DueDelivery[] = [];
    let nextDue = Infinity;
    for (const webhookId of this.store.webhookIds()) {
      const free = this.perLane - (this.lanes.get(webhookId) ?? 0);
      if (free <= 0) continue; // a finishing attempt triggers the next take
      // The lease outlasts the attempt by far (a busy event loop may record results late);
      // a crash ends leases at once anyway (recoverInterrupted).
      const due = this.store.takeDue(webhookId, now, free, now + 2 * this.timeoutMs + 1000);
      for (const d of due) {
        this.lanes.set(webhookId, (this.lanes.get(webhookId) ?? 0) + 1);
        out.push(d);
      }
      if (due.length < free) {
        const t = this.store.nextDueFor(webhookId);
        if (t !== null && t > now) nextDue = Math.min(nextDue, t);
      }
    }
    this.nextDue = nextDue;
    return out;
  }

  private nextDue = Infinity;

  private armNext(): void {
    if (this.running) this.arm(this.nextDue);
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

  /** Sends one leased delivery; its result is recorded by the next group commit. */
  private launch(d: DueDelivery): Promise<void> {
    const signal = this.abort.signal;
    const p = (async () => {
      let result: AttemptResult;
      try {
        result = await sendSigned({
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
      } catch (err) {
        result = { ok: false, statusCode: null, error: (err as Error).message, durationMs: 0, responseExcerpt: '' };
      }
      const interrupted = signal.aborted && !result.ok;
      // Recorded with the other attempts that finish in this turn of the event loop, in one
      // transaction. A crash before that commit leaves the attempt open: it is then marked
      // interrupted and the delivery is sent again (at least once; receivers de-duplicate).
      await new Promise<void>((done) => {
        this.finished.push({ item: { delivery: d, result, now: this.clock.now(), interrupted }, d, result, done });
        this.scheduleFlush();
      });
    })();
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
    return p;
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  /**
   * The group commit: records every finished attempt and leases the next due deliveries for the
   * lanes that freed up, in one transaction; then starts those attempts.
   */
  private flush(): void {
    this.flushScheduled = false;
    const batch = this.finished;
    this.finished = [];
    if (batch.length === 0) return;
    for (const b of batch) {
      const left = (this.lanes.get(b.d.webhookId) ?? 1) - 1;
      if (left <= 0) this.lanes.delete(b.d.webhookId);
      else this.lanes.set(b.d.webhookId, left);
    }
    let due: DueDelivery[] = [];
    try {
      due = this.store.atomically(() => {
        this.store.finishMany(
          batch.map((b) => b.item),
          this.scale,
        );
        return this.running ? this.takeAll(this.clock.now()) : [];
      });
      for (const b of batch) this.opts.onAttempt?.(b.d, b.result);
    } catch (err) {
      this.opts.onError?.(err);
      this.arm(this.clock.now() + 1000);
    } finally {
      for (const b of batch) b.done();
    }
    for (const d of due) void this.launch(d); // tracked in inflight; never rejects
    this.armNext();
  }
}
