import type { ValidationRule } from 'graphql';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { expect, it } from 'vitest';
import { useValidationCache } from '../../src/graphql/plugins/validation-cache.ts';

const schema = createSchema({
  typeDefs: 'type Query { hello: String, pets(first: Int): [String] }',
  resolvers: { Query: { hello: () => 'world', pets: () => [] } },
});

/**
 * A Yoga as the gateway configures it (documents cached by Yoga, validation results by the plugin), with a
 * validation rule added afresh on every request as graphql-armor adds its own, counting the documents it checks,
 * and a second one added while `extraRule` says so.
 */
function server() {
  const checked: string[] = [];
  let extraRule = false;
  const counting: Plugin = {
    onValidate({ addValidationRule, params }) {
      const name = params.documentAST.loc?.source.body ?? '';
      const rule: ValidationRule = () => {
        checked.push(name);
        return {};
      };
      addValidationRule(rule);
      if (extraRule) addValidationRule(() => ({}));
    },
  };
  const yoga = createYoga({
    schema,
    logging: false,
    parserAndValidationCache: { validationCache: false },
    plugins: [counting, useValidationCache()],
  });
  const ask = async (query: string) => {
    const response = await yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return response.json();
  };
  return { ask, checked, setExtraRule: (on: boolean) => (extraRule = on) };
}

it('validates a document once, and answers it the same every time', async () => {
  const { ask, checked } = server();
  for (let i = 0; i < 3; i++) expect(await ask('{ hello }')).toEqual({ data: { hello: 'world' } });
  expect(checked).toEqual(['{ hello }']);
});

it('keeps a refusal too: an invalid document is refused with the same errors each time', async () => {
  const { ask, checked } = server();
  const first = await ask('{ nope }');
  expect(first.errors?.[0]?.message).toMatch(/Cannot query field "nope"/);
  expect(await ask('{ nope }')).toEqual(first);
  expect(checked).toEqual(['{ nope }']);
});

it('tells documents apart, arguments and all', async () => {
  const { ask, checked } = server();
  await ask('{ pets(first: 1) }');
  await ask('{ pets(first: 2) }');
  await ask('{ pets(first: 1) }');
  expect(await ask('{ pets(first: "x") }')).toMatchObject({ errors: [{ message: expect.any(String) }] });
  expect(checked).toEqual(['{ pets(first: 1) }', '{ pets(first: 2) }', '{ pets(first: "x") }']);
});

it('validates again under a different set of rules', async () => {
  const { ask, checked, setExtraRule } = server();
  await ask('{ hello }');
  setExtraRule(true);
  await ask('{ hello }');
  await ask('{ hello }');
  expect(checked).toEqual(['{ hello }', '{ hello }']);
});
