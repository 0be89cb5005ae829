/**
 * The JSON splitter of ingress lives in src/formats/json-split.ts (shared with `ops pipe`); re-exported here
 * for the modules and tests that import it from ingress.
 */
export { JsonSplitter, SplitError, lineAt, splitJson, type Segment, type SegmentFlaw, type SegmentSink } from '../../../../formats/json-split.js';
