import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type DocumentNode,
  type GraphQLSchema,
  getNamedType,
  isListType,
  isNonNullType,
  Kind,
  parse,
  type TypeNode,
  typeFromAST,
  validate,
} from 'graphql';
import { ROUTES } from '../../src/rest/routes.ts';

const LIST_FIELDS = new Set(['pets', 'categories', 'orders', 'inventory']);

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

// A template literal, or a string in quotes.
const STRINGS = /`((?:[^`\\]|\\.)*)`|'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"/g;
// What a template interpolates, given a value that often makes the document valid (an id, a size).
const INTERPOLATION = /\$\{[^{}]*\}/g;

const asks = (document: DocumentNode) =>
  document.definitions.some(
    (definition) =>
      definition.kind === Kind.OPERATION_DEFINITION &&
      definition.operation === 'query' &&
      definition.selectionSet.selections.some(
        (selection) => selection.kind === Kind.FIELD && LIST_FIELDS.has(selection.name.value),
      ),
  );

/**
 * Every query document the test suite writes (an interpolated part taken as 1) that asks for a list, and
 * every REST route's list document: what the differential test sends through both paths.
 */
export function listDocuments(schema: GraphQLSchema): { source: string; from: string }[] {
  const root = resolve(import.meta.dirname, '../..');
  const found = new Map<string, string>();
  for (const file of files(join(root, 'test'))) {
    for (const [, template, single, double] of readFileSync(file, 'utf8').matchAll(STRINGS)) {
      const text = (template ?? single ?? double)?.replace(INTERPOLATION, '1').replace(/\\(["'`\\])/g, '$1');
      if (!text || !/\b(pets|categories|orders|inventory)\b/.test(text)) continue;
      let document: DocumentNode;
      try {
        document = parse(text);
      } catch {
        continue;
      }
      // The caller's quota counts each gateway's own requests: it differs between the twins whatever the path.
      if (/\brateLimit\b/.test(text)) continue;
      // Incremental delivery answers in parts, which the planner never plans and this one-body comparison does not
      // read: the hostile test compares @defer and @stream parts on both paths.
      if (/@(defer|stream)\b/.test(text)) continue;
      if (asks(document) && validate(schema, document).length === 0 && !found.has(text)) {
        found.set(text, file.slice(root.length + 1));
      }
    }
  }
  for (const route of ROUTES) {
    const source = route.document.loc?.source.body;
    if (route.success.kind === 'page' && source) found.set(source, `REST ${route.method} ${route.path}`);
  }
  return [...found].map(([source, from]) => ({ source, from }));
}

/** Values for a document's required variables (the optional ones left out), so that it runs. */
export function variablesFor(schema: GraphQLSchema, document: DocumentNode, petId: number) {
  const variables: Record<string, unknown> = {};
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const variable of definition.variableDefinitions ?? []) {
      const type = typeFromAST(schema, variable.type as TypeNode & { kind: Kind.NAMED_TYPE });
      if (!type || !isNonNullType(type) || variable.defaultValue) continue;
      const named = getNamedType(type).name;
      const one = { Int: 3, Int64: petId, String: 'x', Boolean: true, PetStatus: 'available' }[named];
      variables[variable.variable.name.value] = isListType(type.ofType) ? [one] : one;
    }
  }
  return variables;
}
