/** Webhook building blocks shared by `ops hook` and the notification service. */
export * from './signature.js';
export * from './schedule.js';
export * from './envelope.js';
export * from './send.js';
export * from './event-store.js';
export * from './receiver.js';
export * from './replay.js';
