import { type Change, CriticalityLevel, DiffRule, diff } from '@graphql-inspector/core';
import {
  buildSchema,
  type DocumentNode,
  type GraphQLSchema,
  type GraphQLType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  Kind,
  parse,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
} from 'graphql';

/** A document clients send: its registered id and operation names, and its text. */
export interface CheckedDocument {
  id: string;
  names: string;
  body: string;
}

/** A change of the schema, with the registered documents it breaks (none for a warning). */
export interface Finding {
  message: string;
  path?: string;
  documents: string[];
}

export interface SchemaCheckReport {
  /** Breaking changes that a registered document uses: the check fails. */
  breaking: Finding[];
  /** Breaking changes no registered document uses, and dangerous changes: the check passes, saying so. */
  warnings: Finding[];
  safe: Finding[];
  /** Documents valid against the previous schema that the current one refuses, with graphql-js's reasons. */
  brokenDocuments: { document: string; errors: string[] }[];
  /** Documents the previous schema refused already: not judged, named so that someone looks at them. */
  invalidBefore: string[];
}

const describe = (document: CheckedDocument) => `${document.id} (${document.names})`;

/**
 * Compares the schema being built with the last released one and judges each breaking change against the
 * documents clients registered: graphql-inspector finds and rates the changes, its considerUsage rule asks us
 * which of them a document uses. A document is also run through validation against both schemas, which
 * catches what a coordinate cannot say (a new required argument on a field it selects).
 */
export async function checkSchema(
  previousSdl: string,
  currentSdl: string,
  documents: readonly CheckedDocument[],
): Promise<SchemaCheckReport> {
  // Both sides from their printed text: the built schema carries no directive nodes, so inspector would report
  // every @deprecated as removed.
  const previous = buildSchema(previousSdl);
  const current = buildSchema(currentSdl);
  const invalidBefore: string[] = [];
  const usable = documents.flatMap((document) => {
    let ast: DocumentNode;
    try {
      ast = parse(document.body, { noLocation: true });
    } catch {
      invalidBefore.push(describe(document));
      return [];
    }
    // A document the previous schema refused was broken already: this change is not what breaks it.
    if (validate(previous, ast).length > 0) {
      invalidBefore.push(describe(document));
      return [];
    }
    return [{ document, ast, coordinates: coordinatesUsed(previous, ast) }];
  });
  const usersOf = (path: string) =>
    usable
      .filter(({ coordinates }) => coordinates.has(path) || coordinates.has(typeOf(path, previous)))
      .map(({ document }) => describe(document));

  const changes = await diff(previous, current, [DiffRule.considerUsage], {
    checkUsage: async (targets) =>
      targets.map(({ type, field, argument }) => {
        const path = [type, field, argument].filter(Boolean).join('.');
        return usersOf(path).length === 0;
      }),
  });

  const report: SchemaCheckReport = {
    breaking: [],
    warnings: [],
    safe: [],
    brokenDocuments: [],
    invalidBefore,
  };
  for (const change of changes) {
    const finding = findingOf(change, change.path ? usersOf(change.path) : []);
    if (change.criticality.level === CriticalityLevel.Breaking) report.breaking.push(finding);
    else if (change.criticality.level === CriticalityLevel.Dangerous) report.warnings.push(finding);
    else report.safe.push(finding);
  }
  for (const { document, ast } of usable) {
    const errors = validate(current, ast).map((error) => error.message);
    if (errors.length > 0) report.brokenDocuments.push({ document: describe(document), errors });
  }
  return report;
}

const findingOf = (change: Change, documents: string[]): Finding => ({
  message: change.message,
  ...(change.path && { path: change.path }),
  // considerUsage lowered a breaking change nobody uses to dangerous: it names no document.
  documents: change.criticality.level === CriticalityLevel.Breaking ? documents : [],
});

/**
 * The path whose use makes a change at `path` matter. A change inside an input object or an enum (a new
 * required input field, a removed value) reaches every document that uses the type, so its coordinate is the
 * type's; a change to an output type's field reaches only the documents that select that field.
 */
function typeOf(path: string, previous: GraphQLSchema): string {
  const [typeName = ''] = path.split('.');
  const type = previous.getType(typeName);
  return type && (isInputObjectType(type) || isEnumType(type)) ? typeName : path;
}

/** Every schema coordinate a document touches: types, fields, arguments, input fields and enum values. */
function coordinatesUsed(schema: GraphQLSchema, document: DocumentNode): Set<string> {
  const used = new Set<string>();
  const typeInfo = new TypeInfo(schema);
  const useType = (type: GraphQLType | null | undefined) => {
    if (type) used.add(getNamedType(type).name);
  };
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field() {
        const parent = typeInfo.getParentType();
        const field = typeInfo.getFieldDef();
        if (!parent || !field) return;
        used.add(parent.name);
        used.add(`${parent.name}.${field.name}`);
        useType(field.type);
      },
      Argument() {
        const parent = typeInfo.getParentType();
        const field = typeInfo.getFieldDef();
        const argument = typeInfo.getArgument();
        if (parent && field && argument) used.add(`${parent.name}.${field.name}.${argument.name}`);
        useType(argument?.type ?? null);
      },
      ObjectField() {
        useType(typeInfo.getInputType());
      },
      VariableDefinition(node) {
        const type = schema.getType(namedTypeOf(node.type));
        if (type) used.add(type.name);
      },
      EnumValue(node) {
        const type = typeInfo.getInputType();
        if (type) used.add(`${getNamedType(type).name}.${node.value}`);
      },
    }),
  );
  return used;
}

function namedTypeOf(type: { kind: Kind; type?: unknown; name?: { value: string } }): string {
  return type.kind === Kind.NAMED_TYPE ? (type.name?.value ?? '') : namedTypeOf(type.type as typeof type);
}

/** Whether the check fails: a change breaks a document clients registered. */
export const checkFails = (report: SchemaCheckReport) =>
  report.breaking.length > 0 || report.brokenDocuments.length > 0;

/** The report as lines for a terminal or a CI log. */
export function formatReport(report: SchemaCheckReport, documentCount: number): string[] {
  const lines: string[] = [];
  const section = (title: string, findings: Finding[]) => {
    if (findings.length === 0) return;
    lines.push(`${title} (${findings.length}):`);
    for (const finding of findings) {
      lines.push(`  - ${finding.message}`);
      for (const document of finding.documents) lines.push(`      used by ${document}`);
    }
  };
  section('Breaking, used by registered documents', report.breaking);
  if (report.brokenDocuments.length > 0) {
    lines.push(`Registered documents the new schema refuses (${report.brokenDocuments.length}):`);
    for (const { document, errors } of report.brokenDocuments) {
      lines.push(`  - ${document}`);
      for (const error of errors) lines.push(`      ${error}`);
    }
  }
  section('Warnings: dangerous, or breaking but used by no registered document', report.warnings);
  if (report.invalidBefore.length > 0) {
    lines.push(
      `Registered documents the released schema refused already, not judged (${report.invalidBefore.length}):`,
    );
    for (const document of report.invalidBefore) lines.push(`  - ${document}`);
  }
  section('Safe', report.safe);
  const total = report.breaking.length + report.warnings.length + report.safe.length;
  lines.push(
    total === 0
      ? `No change to the schema; ${documentCount} registered documents checked.`
      : `${total} changes; ${documentCount} registered documents checked: ${checkFails(report) ? 'FAILED' : 'passed'}.`,
  );
  return lines;
}

/** A dated entry for the schema's changelog; null when nothing changed. */
export function changelogEntry(report: SchemaCheckReport, date: Date): string | null {
  const items = [
    ...report.breaking.map((finding) => `- Breaking: ${finding.message}`),
    ...report.warnings.map((finding) => `- Warning: ${finding.message}`),
    ...report.safe.map((finding) => `- ${finding.message}`),
  ];
  if (items.length === 0) return null;
  return `## ${date.toISOString().slice(0, 10)}\n\n${items.join('\n')}\n`;
}
