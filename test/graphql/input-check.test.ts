// The input check's wording for a scalar the catalogue has no entry of its own for: no input of the schema takes
// one today, so the check is called here with one.
import { GraphQLFloat, GraphQLScalarType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { messageOf } from '../../src/contract/errors.ts';
import { inputProblem } from '../../src/graphql/input-check.ts';

describe('a scalar without a wording of its own', () => {
  it('is refused naming the field and the scalar', () => {
    const date = new GraphQLScalarType({
      name: 'Date',
      parseValue: (value) => {
        if (typeof value !== 'string') throw new TypeError('not a date');
        return value;
      },
    });
    for (const [type, value] of [
      [GraphQLFloat, 'cheap'],
      [date, 5],
    ] as const) {
      const problem = inputProblem(value, type, '$price');
      expect(problem?.toBody()).toEqual({
        code: 'VALIDATION_FAILED',
        message: messageOf('fieldNotScalar', { field: '$price', scalar: type.name }),
        status: 400,
      });
    }
    expect(inputProblem(1.5, GraphQLFloat, '$price')).toBeUndefined();
  });
});
