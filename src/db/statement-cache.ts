import type { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type { SqlQuery } from '@prisma/driver-adapter-utils';
import type Sqlite from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

/**
 * Statements kept per connection. Prisma's statements are parameterized, so their texts are few (one per query
 * shape); a list filter (`id IN (?, ?, ...)`) makes one per length, which the bound keeps in check.
 */
const MAX_STATEMENTS = 500;

/** The part of a prepared statement Prisma's better-sqlite3 adapter uses once it has bound the arguments. */
interface BoundStatement {
  readonly reader: boolean;
  run(): Sqlite.RunResult;
  columns(): Sqlite.ColumnDefinition[];
  raw(): { all(): unknown[] };
}

/**
 * Prisma's better-sqlite3 adapter prepares every statement anew (`client.prepare(sql).bind(args)`), and SQLite's
 * parse and plan cost about as much as running a read by id. This keeps the prepared statements by text and hands
 * the adapter a view bound to one call's arguments (better-sqlite3's own `bind` is once per statement for good).
 * test/db/statement-cache.test.ts checks what this relies on.
 */
export function withStatementCache(factory: PrismaBetterSqlite3): PrismaBetterSqlite3 {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const { client } = adapter as unknown as { client: Sqlite.Database };
    const prepare = client.prepare.bind(client);
    const statements = new LRUCache<string, Sqlite.Statement>({
      max: MAX_STATEMENTS,
      memoMethod: (sql) => prepare(sql),
    });
    // The adapter binds the arguments of its queries, and runs BEGIN unbound.
    (client as { prepare: unknown }).prepare = (sql: string) => {
      const statement = statements.memo(sql);
      return {
        bind: (args: unknown[]): BoundStatement => bound(statement, args),
        run: () => statement.run(),
      };
    };
    return adapter;
  };
  return factory;
}

// A statement's columns are fixed by its text and the schema, which does not change while the gateway serves; better-sqlite3
// builds a new array of column objects on every call, a large share of a read by id (docs/performance.md, lever 8).
const columnsOf = new WeakMap<Sqlite.Statement, Sqlite.ColumnDefinition[]>();

function columns(statement: Sqlite.Statement): Sqlite.ColumnDefinition[] {
  let known = columnsOf.get(statement);
  if (!known) {
    known = statement.columns();
    columnsOf.set(statement, known);
  }
  return known;
}

function bound(statement: Sqlite.Statement, args: unknown[]): BoundStatement {
  return {
    reader: statement.reader,
    run: () => statement.run(...args),
    columns: () => columns(statement),
    raw: () => ({ all: () => statement.raw(true).all(...args) }),
  };
}

/**
 * Names for PostgreSQL prepared statements, one per SQL text: node-postgres prepares a named statement once per
 * connection and then only binds and executes it, where an unnamed one is parsed and planned on every call.
 */
export function statementNames(): (query: SqlQuery) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    // Past the bound, new texts go unnamed (an empty name is node-postgres's unnamed statement).
    if (name === undefined && names.size < MAX_STATEMENTS) {
      name = `prisma_${names.size + 1}`;
      names.set(sql, name);
    }
    return name ?? '';
  };
}
