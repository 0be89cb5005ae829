/**
 * The update formats of JSON ingress (Feldera's JsonUpdateFormat for input): what the ingress route accepts in
 * `update_format` and an input connector in its config. The server checks the name; the worker's JSON parser
 * (worker/ingress/json.ts) reads each format.
 */

export type UpdateFormat = 'insert_delete' | 'raw' | 'weighted' | 'debezium';
export const UPDATE_FORMATS: readonly string[] = ['insert_delete', 'raw', 'weighted', 'debezium'];
