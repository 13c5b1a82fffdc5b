import type { DatabaseTarget } from '../../config/database-url.ts';
import type { Column, ColumnKind } from './model.ts';

/**
 * How one database writes the statement's JSON. Both write exactly the bytes JSON.stringify would for the
 * resolvers' result (key order, no spaces, the same escapes), so that the planned answer is the same text.
 * PostgreSQL concatenates text (json_build_object and json_agg put spaces after ':' and ','); SQLite's
 * json_object and json_group_array are compact. An expression here is an SQL expression: on PostgreSQL one
 * whose value is JSON text; on SQLite one that json_object takes as a member value.
 */
export interface Dialect {
  readonly name: 'postgresql' | 'sqlite';
  table(model: string): string;
  /** A bound value (`marker`, numbered later in the text's order), cast to the column's type where needed. */
  placeholder(marker: string, column: Column): string;
  /** The placeholder of the `index`th (from 1) bound value in the text. */
  numbered(index: number): string;
  /** A column's value as JSON; `nullable`: SQL NULL is JSON null. */
  column(alias: string, column: Column, nullable: boolean): string;
  /** A JSON string that is the SQL text expression's value; `nullable`: NULL is JSON null. */
  string(sql: string, nullable: boolean): string;
  /** A constant JSON string. */
  constant(text: string): string;
  /** A boolean condition as JSON true or false. */
  boolean(condition: string): string;
  /**
   * The JSON text a subquery built, in a member; `nullable`: none is JSON null. Else a missing one fails the
   * statement (the JSON parse of a text that is not JSON, `rowRef` keeping it from being folded as a constant):
   * the runner then hands the request to the resolvers, whose Error object tells of it.
   */
  nested(subquery: string, nullable: boolean, rowRef: string): string;
  /** One of a few constant strings, chosen by CASE; one that matches none fails the statement as above. */
  chosen(cases: readonly [string, string][], rowRef: string): string;
  object(members: readonly [string, string][]): string;
  /** The JSON array of the rows' `json` values, in `order` (an aggregate: one per SELECT). */
  arrayAgg(json: string, order: string): string;
  /** The cursor of the row whose cursor column is `id` (NULL when it is). */
  cursor(id: string): string;
  /** The statement's one column, from the root object. */
  root(object: string): string;
}

export function quote(identifier: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(identifier)) throw new Error(`not an identifier: ${identifier}`);
  return `"${identifier}"`;
}

// Only names the GraphQL grammar allows (response keys, type names) and constant values ever become literals.
function literal(text: string): string {
  if (!/^[A-Za-z0-9_:",{} ]*$/.test(text)) throw new Error(`not a literal the planner writes: ${text}`);
  return `'${text}'`;
}

const POSTGRES_CASTS: Record<Exclude<ColumnKind, 'enum'>, string> = {
  int64: 'int8',
  int: 'int4',
  string: 'text',
  boolean: 'boolean',
  datetime: 'timestamp(3)',
};

export function postgresql(schema: string | undefined): Dialect {
  const prefix = schema ? `${quote(schema)}.` : '';
  const required = (json: string, rowRef: string) =>
    `coalesce(${json}, (${rowRef}::text || '!')::json::text)`;
  return {
    name: 'postgresql',
    table: (model) => `${prefix}${quote(model)}`,
    placeholder: (marker, column) =>
      column.kind === 'enum'
        ? `CAST(${marker}::text AS ${prefix}${quote(column.enumName ?? '')})`
        : `${marker}::${POSTGRES_CASTS[column.kind]}`,
    numbered: (index) => `$${index}`,
    column(alias, column, nullable) {
      const ref = `${alias}.${quote(column.name)}`;
      let json: string;
      switch (column.kind) {
        case 'int64':
        case 'int':
          json = `${ref}::text`;
          break;
        case 'boolean':
          json = `CASE WHEN ${ref} THEN 'true' WHEN NOT ${ref} THEN 'false' END`;
          break;
        case 'datetime':
          json = `'"' || to_char(${ref}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'`;
          break;
        default:
          json = `to_json(${ref}::text)::text`;
      }
      // A required column is NOT NULL in the database.
      return nullable ? `coalesce(${json}, 'null')` : json;
    },
    string: (sql, nullable) => (nullable ? `coalesce('"' || ${sql} || '"', 'null')` : `'"' || ${sql} || '"'`),
    constant: (text) => literal(`"${text}"`),
    boolean: (condition) => `CASE WHEN ${condition} THEN 'true' ELSE 'false' END`,
    nested: (subquery, nullable, rowRef) =>
      nullable ? `coalesce((${subquery}), 'null')` : required(`(${subquery})`, rowRef),
    chosen: (cases, rowRef) =>
      required(
        `CASE ${cases.map(([when, text]) => `WHEN ${when} THEN ${literal(`"${text}"`)}`).join(' ')} END`,
        rowRef,
      ),
    object(members) {
      const parts: string[] = [];
      let text = '{';
      members.forEach(([key, json], i) => {
        text += `${i > 0 ? ',' : ''}"${key}":`;
        parts.push(literal(text), json);
        text = '';
      });
      parts.push(literal(`${text}}`));
      return `(${parts.join(' || ')})`;
    },
    arrayAgg: (json, order) => `'[' || coalesce(string_agg(${json}, ',' ORDER BY ${order}), '') || ']'`,
    cursor: (id) => `encode(convert_to('GPC:I:' || ${id}::text, 'UTF8'), 'base64')`,
    root: (object) => object,
  };
}

export const sqlite: Dialect = {
  name: 'sqlite',
  table: (model) => `"main".${quote(model)}`,
  placeholder: (marker) => marker,
  numbered: () => '?',
  column(alias, column, _nullable) {
    const ref = `${alias}.${quote(column.name)}`;
    switch (column.kind) {
      case 'boolean':
        return `json(CASE WHEN ${ref} THEN 'true' WHEN NOT ${ref} THEN 'false' END)`;
      case 'datetime':
        return `strftime('%Y-%m-%dT%H:%M:%fZ', ${ref})`;
      default:
        return ref;
    }
  },
  string: (sql, _nullable) => sql,
  constant: (text) => literal(text),
  boolean: (condition) => `json(CASE WHEN ${condition} THEN 'true' ELSE 'false' END)`,
  nested: (subquery, nullable, rowRef) =>
    nullable ? `json((${subquery}))` : `json(coalesce((${subquery}), ${rowRef} || '!'))`,
  chosen: (cases, rowRef) =>
    `coalesce(CASE ${cases.map(([when, text]) => `WHEN ${when} THEN ${literal(text)}`).join(' ')} END, json(${rowRef} || '!'))`,
  object: (members) => `json_object(${members.map(([key, json]) => `${literal(key)}, ${json}`).join(', ')})`,
  // The members are json_object values of the same SELECT: no text to parse again.
  arrayAgg: (json, order) => `json_group_array(${json} ORDER BY ${order})`,
  // Registered on each connection (db/sqlite-connection.ts): core SQLite has no base64.
  cursor: (id) => `gateway_cursor(${id})`,
  root: (object) => object,
};

export function dialectOf(target: DatabaseTarget): Dialect {
  return target.provider === 'sqlite' ? sqlite : postgresql(target.schema);
}
