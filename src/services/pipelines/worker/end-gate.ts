/**
 * When an ingress request's End may be applied in the worker. Ingress travels on its own channel
 * (ingress-frames.ts), beside the host's messages; an End names how many messages the host had posted
 * before it, and is applied only once the worker has taken that many, in the order the Ends came. So a
 * subscription (or a transaction's start) posted before a request's body ended is in force when that
 * request's step runs, as when both shared one channel.
 *
 * Pure bookkeeping: the caller counts messages as they arrive (message()), hands over Ends (end()), and
 * applies the ids each call returns, in order.
 */
export class EndGate {
  /** Messages from the host taken so far. */
  private received = 0;
  private readonly waiting: Array<{ id: number; postedBefore: number }> = [];

  /** A message was taken: the requests it lets through. */
  message(): number[] {
    this.received++;
    return this.due();
  }

  /** A request's body ended after `postedBefore` messages: the requests that may be applied now. */
  end(id: number, postedBefore: number): number[] {
    this.waiting.push({ id, postedBefore });
    return this.due();
  }

  /** A request was dropped before it was applied. */
  abort(id: number): void {
    const at = this.waiting.findIndex((e) => e.id === id);
    if (at >= 0) this.waiting.splice(at, 1);
  }

  private due(): number[] {
    const out: number[] = [];
    while (this.waiting.length > 0 && this.waiting[0]!.postedBefore <= this.received) out.push(this.waiting.shift()!.id);
    return out;
  }
}
