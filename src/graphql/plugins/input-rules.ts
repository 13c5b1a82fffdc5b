import { type ExecutionArgs, type ExecutionResult, getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { toGraphQLError } from '../../contract/graphql-error.ts';
import { variablesProblem } from '../input-check.ts';

/**
 * Refuses an operation whose variables break the shape rule (input-check.ts) before it runs, with the message
 * a REST body with the same value gets: VALIDATION_FAILED naming the field. Answered as graphql-js answers its
 * own variable errors, which it then never meets: an error without data, no HTTP status of its own.
 */
export function useInputRules(): Plugin {
  const check = ({
    args,
    setResultAndStopExecution,
  }: {
    args: ExecutionArgs;
    setResultAndStopExecution: (result: ExecutionResult) => void;
  }) => {
    const definitions = getOperationAST(args.document, args.operationName)?.variableDefinitions;
    if (!definitions?.length) return;
    const problem = variablesProblem(args.schema, definitions, args.variableValues);
    if (problem) setResultAndStopExecution({ errors: [toGraphQLError(problem)] });
  };
  // Subscriptions too: their arguments are variables like any operation's.
  return { onExecute: check, onSubscribe: check };
}
