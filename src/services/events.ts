/**
 * In-process domain events between services of `ops serve`: the bookmark service emits
 * user.* / link.* / tag.* events; the notification service subscribes and delivers webhooks.
 */
import { EventEmitter } from 'node:events';

export interface DomainEvent {
  /** e.g. 'user.created', 'link.updated', 'payment.completed' */
  type: string;
  /** The event payload (the envelope's `data`). */
  data: Record<string, unknown>;
  /** The user the event belongs to, when there is one. */
  userId?: number | string;
}

export class EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  emit(event: DomainEvent): void {
    this.emitter.emit('event', event);
  }

  subscribe(listener: (event: DomainEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
