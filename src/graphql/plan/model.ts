import { getDatamodel } from '../../generated/pothos-types.ts';

/** How the planner writes a column's value as JSON. */
export type ColumnKind = 'int64' | 'int' | 'string' | 'boolean' | 'datetime' | 'enum';

export interface Column {
  name: string;
  kind: ColumnKind;
  /** The enum's type name, for a bound value's cast on PostgreSQL. */
  enumName?: string;
}

/** A relation as SQL sees it: the related row's `column` equals the row's `parentColumn`. */
export interface Join {
  model: string;
  column: string;
  parentColumn: string;
  toMany: boolean;
}

/** Thrown while planning for anything the planner does not cover: the operation keeps the resolvers' path. */
export class Unplannable extends Error {}

const SCALARS: Record<string, ColumnKind> = {
  BigInt: 'int64',
  Int: 'int',
  String: 'string',
  Boolean: 'boolean',
  DateTime: 'datetime',
};

type ModelFields = ReturnType<typeof getDatamodel>['datamodel']['models'][string]['fields'];

const models = getDatamodel().datamodel.models;

function fieldsOf(model: string): ModelFields {
  const found = models[model];
  if (!found) throw new Unplannable(`no model ${model}`);
  return found.fields;
}

/** A scalar column of a model (the Prisma schema's own description of it), or Unplannable. */
export function columnOf(model: string, name: string): Column {
  const field = fieldsOf(model).find((f) => f.name === name);
  if (field?.kind === 'enum') return { name, kind: 'enum', enumName: field.type };
  const kind = field?.kind === 'scalar' ? SCALARS[field.type] : undefined;
  if (!kind) throw new Unplannable(`${model}.${name} is no column the planner reads`);
  return { name, kind };
}

/** The model's one id column. */
export function idOf(model: string): string {
  const ids = fieldsOf(model).filter((f) => f.isId);
  if (ids.length !== 1 || !ids[0]) throw new Unplannable(`${model} has no single-column id`);
  return ids[0].name;
}

/**
 * A relation of a model, from the Prisma schema: the side that holds the foreign key names it
 * (`relationFromFields`), which refers to the other model's id.
 */
export function joinOf(model: string, relation: string): Join {
  const field = fieldsOf(model).find((f) => f.name === relation && f.kind === 'object');
  if (!field?.relationName) throw new Unplannable(`${model}.${relation} is no relation`);
  const target = field.type;
  const [from, ...more] = field.relationFromFields ?? [];
  if (from && more.length === 0) {
    return { model: target, column: idOf(target), parentColumn: from, toMany: false };
  }
  const back = fieldsOf(target).find(
    (f) => f.relationName === field.relationName && f.kind === 'object' && f.type === model,
  );
  const [key, ...moreKeys] = back?.relationFromFields ?? [];
  if (!key || moreKeys.length > 0) throw new Unplannable(`${model}.${relation} has no single-column key`);
  return { model: target, column: key, parentColumn: idOf(model), toMany: field.isList };
}
