import { z } from 'zod';
import { redact } from './database-url.ts';

/** A setting that stops the process at start: its message lists every problem, one per line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Parts = Record<string, z.ZodType>;

/**
 * Reads parts of the configuration from the environment, each part from all of it. The parts are checked
 * together, so that one start names every problem of every part: one line each, with the variable and its
 * value (a password in it hidden).
 */
export function readConfig<P extends Parts>(
  parts: P,
  env: NodeJS.ProcessEnv = process.env,
): { [Name in keyof P]: z.output<P[Name]> } {
  const input = Object.fromEntries(Object.keys(parts).map((name) => [name, env]));
  const result = z.object(parts).safeParse(input);
  if (result.success) return result.data as { [Name in keyof P]: z.output<P[Name]> };
  const problems = result.error.issues.map((issue) => `  ${describe(issue, env)}`);
  throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
}

/** `NAME="value": message`, with the place inside the value (a JSON setting's) before the message. */
function describe(issue: z.core.$ZodIssue, env: NodeJS.ProcessEnv): string {
  const [part, name, ...inside] = issue.path.map(String);
  const variable = name ?? part;
  const value = variable !== undefined ? env[variable] : undefined;
  const shown = value === undefined ? ' (not set)' : `=${JSON.stringify(redact(value))}`;
  const at = inside.length > 0 ? `${inside.join('.')}: ` : '';
  return `${variable}${shown}: ${at}${issue.message}`;
}
