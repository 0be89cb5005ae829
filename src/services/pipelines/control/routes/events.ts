/**
 * Today's pipeline monitor events: `GET /v0/pipelines/{name}/events?selector=status|all` (newest first) and
 * `GET /v0/pipelines/{name}/events/{event_id|latest}?selector=...`; monitor-events.ts records them.
 *
 * Rules (as today's Feldera manager, pipeline_events.rs):
 * - `selector` defaults to `status` (no details, no deployment_error); `all` adds them. Any other value is
 *   400 ``Query deserialize error: unknown variant `X`, expected `all` or `status` ``, checked first (the
 *   manager parses the query before it looks at the pipeline).
 * - An event id that is not a UUID is 400 InvalidUuidParam (before the pipeline is looked up); an unknown
 *   pipeline 404 UnknownPipelineName; an event no longer kept (or never recorded) 404
 *   UnknownPipelineMonitorEvent; `latest` of a pipeline without events 404 NoPipelineMonitorEventsAvailable.
 * - Answered with `Cache-Control: no-cache`, in both `--pipeline-api` modes (the paths are today's only).
 */
import type { FastifyInstance } from 'fastify';
import { FelderaError } from '../../shared/errors.js';
import type { PipelineManager } from '../manager.js';
import { selectFields, type EventSelector } from '../monitor-events.js';
import { parseUuid } from './uuid.js';
import { objectOf } from '../../../kit/declare.js';
import { declareRoute } from '../../../kit/route.js';
import { choice } from './query-fields.js';

const EventErrors = {
  unknownEvent: (id: string) =>
    new FelderaError(
      404,
      'UnknownPipelineMonitorEvent',
      `Pipeline monitor event with identifier '${id}' does not exist -- it might have been deleted as only a limited number of events are retained`,
      {
        event_id: id,
      },
    ),
  noEvents: () => new FelderaError(404, 'NoPipelineMonitorEventsAvailable', 'There are not yet any pipeline monitor events recorded', null),
  invalidUuid: (value: string, error: string) => new FelderaError(400, 'InvalidUuidParam', `Invalid UUID string '${value}': ${error}`, { value, error }),
};

/** ?selector: `status` (default) or `all`, read before anything else. */
const eventsQuery = objectOf({ selector: choice<EventSelector>(['all', 'status'], 'status') });
type EventsQuery = ReturnType<typeof eventsQuery.check>;

export function eventRoutes(app: FastifyInstance, manager: PipelineManager): void {
  declareRoute<undefined, EventsQuery, { name: string }>(app, {
    method: 'GET',
    url: '/pipelines/:name/events',
    summary: "A pipeline's monitor events, newest first",
    query: eventsQuery,
    handler: async (req, reply, input) => {
      const { selector } = input.query;
      const e = manager.get(req.params.name);
      reply.header('cache-control', 'no-cache');
      return manager.events.list(e.rec.id).map((ev) => selectFields(ev, selector));
    },
  });

  declareRoute<undefined, EventsQuery, { name: string; event: string }>(app, {
    method: 'GET',
    url: '/pipelines/:name/events/:event',
    summary: "One of a pipeline's monitor events, by id or `latest`",
    query: eventsQuery,
    handler: async (req, reply, input) => {
      const { selector } = input.query;
      const { name, event } = req.params;
      let eventId: string | null = null;
      if (event !== 'latest') {
        const parsed = parseUuid(event);
        if ('error' in parsed) throw EventErrors.invalidUuid(event, parsed.error);
        eventId = parsed.uuid;
      }
      const e = manager.get(name);
      const ev = eventId === null ? manager.events.latest(e.rec.id) : manager.events.find(e.rec.id, eventId);
      if (!ev) throw eventId === null ? EventErrors.noEvents() : EventErrors.unknownEvent(eventId);
      reply.header('cache-control', 'no-cache');
      return selectFields(ev, selector);
    },
  });
}
