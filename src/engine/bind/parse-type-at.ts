/** A type written in the program, read with the user types of the statement being bound; a bad one is an SqlError at `pos`. */
import { SqlError, type Pos } from '../parse/ast.js';
import type { SqlType } from '../types/types.js';
import { dataTypeToSql, TypeSyntaxError } from '../types/parse-type.js';
import type { CompileSession } from './compile-session.js';

export function parseTypeAt(t: unknown, pos: Pos, session: CompileSession): SqlType {
  try {
    return dataTypeToSql(t, session.userTypes);
  } catch (e) {
    if (e instanceof TypeSyntaxError) throw new SqlError(e.message, pos, 'type');
    throw e;
  }
}
