/**
 * CONNECTOR_METADATA() -> VARIANT (nullable) (Feldera docs/sql/grammar.md): the metadata an input connector
 * attaches to the record being ingested, read in a column's DEFAULT, e.g.
 * `DEFAULT CAST(CONNECTOR_METADATA()['kafka_topic'] AS VARCHAR)`. The connectors of `ops serve` (HTTP ingress,
 * files, URLs) attach no metadata, so it is NULL here, as it is in Feldera for a record whose connector attaches
 * none (the column then takes NULL).
 */
import { mk } from '../../types/types.js';
import { constant } from '../bexpr.js';
import type { FnTable } from './registry.js';
import { argc } from './args.js';

export const SYSTEM_FNS: FnTable = {
  CONNECTOR_METADATA: {
    sig: "CONNECTOR_METADATA() -> VARIANT: the ingesting connector's metadata; NULL for the connectors of ops serve",
    nulls: 'always NULL here',
    bind: (args, pos, name) => {
      argc(name, args, 0, 0, pos);
      return constant(mk('VARIANT', true), null);
    },
  },
};
