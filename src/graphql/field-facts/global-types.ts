import type {
  FieldNullability,
  InputFieldMap,
  InputShapeFromFields,
  SchemaTypes,
  TypeParam,
} from '@pothos/core';
import type { CacheScope } from '../../contract/http-caching.ts';
import type { PetsByIdDeprecation } from '../../contract/pets-by-id.ts';
import type { DemandedScope, DeprecationName, Derived, ListPlan } from './facts.ts';
import type { FieldFactsPlugin } from './plugin.ts';

// The gateway's field options, typed where they are written (as @pothos/plugin-example declares its own).
declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      fieldFacts: FieldFactsPlugin<Types>;
    }

    export interface BuildSchemaOptions<Types extends SchemaTypes> {
      /** The configured dates of each dated deprecation (contract/pets-by-id.ts). */
      deprecations: Record<DeprecationName, PetsByIdDeprecation>;
    }

    export interface FieldOptions<
      Types extends SchemaTypes,
      ParentShape,
      Type extends TypeParam<Types>,
      Nullable extends FieldNullability<Type>,
      Args extends InputFieldMap,
      ResolveShape,
      ResolveReturnShape,
    > {
      /** Its value depends on who asks: no result that selects it is kept or shared. */
      callerDependent?: boolean;
      /** Tables (Prisma models) it reads that its type does not show. */
      readsTables?: readonly (keyof Types['PrismaTypes'] & string)[];
      /**
       * Who may keep an answer that selects it (Cache-Control; the most restrictive field wins): `public` by
       * default, `private` when `callerDependent`, `no-store` for a value that changes with every request.
       */
      cache?: CacheScope;
      /** A connection's paging column and the rows it lists, shared by its resolver and the list planner. */
      listPlan?: ListPlan<InputShapeFromFields<Args>>;
      /** A value computed from its row's columns, as the list planner computes it in SQL. */
      derived?: Derived;
    }

    export interface QueryFieldOptions<
      Types extends SchemaTypes,
      Type extends TypeParam<Types>,
      Nullable extends FieldNullability<Type>,
      Args extends InputFieldMap,
      ResolveReturnShape,
    > {
      /** The scope a caller's key needs beyond `read`. */
      scope?: DemandedScope;
      /** Deprecated on configured dates; answers ENDPOINT_SUNSET after the sunset. */
      deprecation?: DeprecationName;
    }

    export interface MutationFieldOptions<
      Types extends SchemaTypes,
      Type extends TypeParam<Types>,
      Nullable extends FieldNullability<Type>,
      Args extends InputFieldMap,
      ResolveReturnShape,
    > {
      /** Required: a write that named no scope would be open to every key. */
      scope: DemandedScope;
      /** Limited per caller (configured by field name): the `field limits` stage. */
      fieldLimit?: boolean;
    }

    export interface SubscriptionFieldOptions<
      Types extends SchemaTypes,
      Type extends TypeParam<Types>,
      Nullable extends FieldNullability<Type>,
      Args extends InputFieldMap,
      ResolveShape,
      ResolveReturnShape,
    > {
      /** The scope a caller's key needs beyond `read`. */
      scope?: DemandedScope;
    }
  }
}
