import type { PageArguments } from './arguments.ts';
import { type Dialect, quote } from './dialects.ts';
import { type Column, idOf } from './model.ts';
import type { ConnectionPlan, Member, SelectionPlan } from './selection.ts';
import { conditionOf, shapeOf } from './where.ts';

/** A statement for one shape of arguments: its text, and how to read each bound value from a request's. */
export interface Statement {
  text: string;
  values: ((pages: readonly PageArguments[]) => unknown)[];
}

const BIGINT: Column = { name: 'size', kind: 'int64' };

/** What makes two requests of one plan need different SQL text: each connection's direction, cursor, filter. */
export function statementShapeOf(pages: readonly PageArguments[]): string {
  return pages
    .map(
      (page) =>
        `${page.backward ? 'b' : 'f'}${page.after ? 'a' : page.before ? 'B' : ''}|${shapeOf(page.where)}`,
    )
    .join('/');
}

/**
 * The one statement that answers a planned selection for requests of this shape: a SELECT of one column, the
 * `data` object's JSON text. Every connection is a subquery that reads its page in paging order, as the
 * resolvers' Prisma query does (the cursor's row on, skipping one; LIMIT the page size), and aggregates it in
 * ascending order; whether another page exists is an EXISTS on the row after it; rows below it are correlated
 * subqueries. Values are never part of the text.
 */
export function compileStatement(
  plan: SelectionPlan,
  pages: readonly PageArguments[],
  dialect: Dialect,
): Statement {
  const values: Statement['values'] = [];
  let aliases = 0;
  const bind = (column: Column, read: (pages: readonly PageArguments[]) => unknown) => {
    values.push(read);
    return dialect.placeholder(`${MARK}${values.length - 1}${MARK}`, column);
  };
  const size = (id: number) => bind(BIGINT, (p) => BigInt((p[id] as PageArguments).size));

  function object(
    members: readonly Member[],
    alias: string,
    model: string,
    parent?: ConnectionScope,
  ): string {
    return dialect.object(members.map(({ key, value }) => [key, member(value, alias, model, parent)]));
  }

  interface ConnectionScope {
    connection: ConnectionPlan;
    /** The alias of the page's rows. */
    row: string;
    /** A condition: a row follows the page. */
    more: () => string;
  }

  function member(value: Member['value'], alias: string, model: string, scope?: ConnectionScope): string {
    switch (value.kind) {
      case 'text':
        return dialect.constant(value.text);
      case 'column':
        return dialect.column(alias, value.column, value.nullable);
      case 'derived': {
        const cases = value.derived.values.map((text): [string, string] => {
          // The rule's constants are bound like any value.
          const where = value.derived.where(text);
          return [
            conditionOf(value.model, alias, where, (column, read) => bind(column, () => read(where))),
            text,
          ];
        });
        return dialect.chosen(cases, `${alias}.${quote(idOf(value.model))}`);
      }
      case 'object': {
        const inner = `t${++aliases}`;
        const { join } = value;
        const subquery = `SELECT ${object(value.members, inner, join.model)} FROM ${dialect.table(join.model)} ${inner} WHERE ${inner}.${quote(join.column)} = ${alias}.${quote(join.parentColumn)}`;
        return dialect.nested(subquery, value.nullable, `${alias}.${quote(join.parentColumn)}`);
      }
      case 'connection':
        // An aggregate without GROUP BY always answers one row.
        return dialect.nested(connection(value.connection, alias || undefined), true, '');
      case 'edges':
        if (!scope) throw new Error('edges outside a connection');
        return dialect.arrayAgg(
          object(value.members, scope.row, model, scope),
          `${scope.row}.${quote(scope.connection.cursor.name)}`,
        );
      case 'pageInfo':
        if (!scope) throw new Error('pageInfo outside a connection');
        return object(value.members, alias, model, scope);
      case 'hasNextPage':
      case 'hasPreviousPage': {
        if (!scope) throw new Error('pageInfo outside a connection');
        const page = pages[scope.connection.id] as PageArguments;
        // As Pothos answers: a `before` page has a next one, a `last` page none, an `after` page a previous one.
        const full = () => dialect.boolean(scope.more());
        if (value.kind === 'hasNextPage') {
          return page.before ? dialect.boolean('1 = 1') : page.backward ? dialect.boolean('1 = 0') : full();
        }
        return page.after ? dialect.boolean('1 = 1') : page.backward ? full() : dialect.boolean('1 = 0');
      }
      case 'startCursor':
      case 'endCursor': {
        if (!scope) throw new Error('pageInfo outside a connection');
        const key = `${scope.row}.${quote(scope.connection.cursor.name)}`;
        const id = `${value.kind === 'startCursor' ? 'min' : 'max'}(${key})`;
        return dialect.string(dialect.cursor(id), true);
      }
      case 'cursor':
        return dialect.string(dialect.cursor(`${alias}.${quote(scopeCursor(scope))}`), false);
      case 'node':
        return object(value.members, alias, model);
    }
  }

  function scopeCursor(scope: ConnectionScope | undefined): string {
    if (!scope) throw new Error('cursor outside a connection');
    return scope.connection.cursor.name;
  }

  function connection(plan: ConnectionPlan, parentAlias?: string): string {
    const page = pages[plan.id] as PageArguments;
    const row = `t${++aliases}`;
    const table = dialect.table(plan.model);
    const cursor = quote(plan.cursor.name);
    const direction = page.backward ? 'DESC' : 'ASC';
    const offset = page.cursorId !== undefined ? 1 : 0;
    // The rows of the connection under `alias`, in paging order, from `skip` rows after the cursor's on.
    const rows = (alias: string, columns: string, limit: string, skip: string) => {
      const conditions: string[] = [];
      if (plan.join && parentAlias) {
        conditions.push(
          `${alias}.${quote(plan.join.column)} = ${parentAlias}.${quote(plan.join.parentColumn)}`,
        );
      }
      conditions.push(
        conditionOf(plan.model, alias, page.where, (column, read) =>
          bind(column, (p) => read((p[plan.id] as PageArguments).where)),
        ),
      );
      if (page.cursorId !== undefined) {
        // Prisma's cursor: from the cursor's row on (none when it no longer exists), skipping one row.
        const id = bind(plan.cursor, (p) => (p[plan.id] as PageArguments).cursorId);
        conditions.push(
          `${alias}.${cursor} ${page.backward ? '<=' : '>='} (SELECT c.${cursor} FROM ${table} c WHERE c.${cursor} = ${id})`,
        );
      }
      return `SELECT ${columns} FROM ${table} ${alias} WHERE ${conditions.join(' AND ')} ORDER BY ${alias}.${cursor} ${direction} LIMIT ${limit} OFFSET ${skip}`;
    };
    const scope: ConnectionScope = {
      connection: plan,
      row,
      // Whether a row follows the page in paging order: what Pothos learns from reading one row more.
      more: () =>
        `EXISTS (${rows(
          `${row}x`,
          '1',
          '1',
          bind(BIGINT, (p) => BigInt((p[plan.id] as PageArguments).size + offset)),
        )})`,
    };
    // The page object aggregates the page's rows in one SELECT (an empty page is one row too); one that reads
    // none of them (only whether there is another page) selects from no rows at all.
    const pageObject = object(plan.members, row, plan.model, scope);
    const readsRows = plan.members.some(
      ({ value }) =>
        value.kind === 'edges' ||
        (value.kind === 'pageInfo' &&
          value.members.some((m) => m.value.kind === 'startCursor' || m.value.kind === 'endCursor')),
    );
    if (!readsRows) return `SELECT ${pageObject}`;
    const source = rows(row, '*', size(plan.id), String(offset));
    return `SELECT ${pageObject} FROM (${source}) ${row}`;
  }

  const marked = `SELECT ${dialect.root(object(plan.members, '', ''))} AS "json"`;
  // Placeholders numbered in the order the text holds them (SQLite's `?` bind by position).
  const ordered: Statement['values'] = [];
  const text = marked.replace(MARKED, (_, index: string) => {
    ordered.push(values[Number(index)] as Statement['values'][number]);
    return dialect.numbered(ordered.length);
  });
  return { text, values: ordered };
}

// No identifier or literal the planner writes holds an @.
const MARK = '@@';
const MARKED = /@@(\d+)@@/g;
