// The PostgreSQL schema is the SQLite one with another provider and client output; the Pothos types are
// generated once, from the SQLite schema, since both clients share one model API.
export const SQLITE_SCHEMA_PATH = 'prisma/schema.prisma';
export const POSTGRES_SCHEMA_PATH = 'prisma/postgresql/schema.prisma';

export function derivePostgresSchema(sqliteSchema: string): string {
  const header =
    '// GENERATED from prisma/schema.prisma by `npm run db:derive`. Do not edit: edit that file instead.\n';
  const body = sqliteSchema
    .replace(/^\/\/.*\n/gm, (line) => (line.includes('hand-written') || line.includes('derived') ? '' : line))
    .replace(/generator pothos \{[^}]*\}\n\n/, '')
    // Models documented as "SQLite only" (their triggers are SQLite's) are left out, with their comment.
    .replace(/\n(?:\/\/\/.*\n)*\/\/\/ SQLite only[\s\S]*?\n\}\n/g, '')
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace('output       = "../src/generated/sqlite"', 'output       = "../../src/generated/postgresql"');
  return header + body.replace(/^\n+/, '\n');
}
