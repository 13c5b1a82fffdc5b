// What the operator's commands (`apikey`, `documents`, `domains`) share: one way to read a command line
// (node:util's parseArgs), one usage text style, one `--help`, and the same exit statuses.
import { type ParseArgsConfig, parseArgs } from 'node:util';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** The command line is wrong: the message says how, and the usage follows it on stderr (exit status 2). */
export class UsageError extends Error {}

/** Exit statuses every command shares; a command may give 1 a narrower meaning in its usage. */
export const EXIT_STATUSES =
  'Exit status: 0 done, 1 failed, 2 wrong command line (this usage is then printed on stderr).';

export interface UsageForm {
  /** The arguments after `npm run --silent <tool> --`; a further line continues them, aligned under the first. */
  args: string | string[];
  /** What the form does, a line each. */
  about?: string[];
}

/** The one usage style: `Usage:`, each form with what it does under it, `--help`, then notes and exit statuses. */
export function usageText(
  tool: string,
  forms: UsageForm[],
  notes: string[] = [],
  exitStatuses = EXIT_STATUSES,
) {
  const command = `  npm run --silent ${tool} -- `;
  const lines = ['Usage:'];
  for (const { args, about = [] } of [...forms, { args: '--help' }]) {
    const [first, ...rest] = typeof args === 'string' ? [args] : args;
    lines.push(`${command}${first}`, ...rest.map((line) => `${' '.repeat(command.length)}${line}`));
    lines.push(...about.map((line) => `      ${line}`));
  }
  return [...lines, ...notes, exitStatuses].join('\n');
}

/** `help` as the command, or `--help` / `-h` anywhere: the usage on stdout, exit status 0. */
export const isHelpRequest = (argv: readonly string[]) =>
  argv[0] === 'help' || argv.includes('--help') || argv.includes('-h');

/** The command (the first argument), one of `commands`, and the arguments after it. */
export function splitCommand<Command extends string>(
  argv: readonly string[],
  commands: readonly Command[],
): [Command, string[]] {
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError('no command given');
  if (!(commands as readonly string[]).includes(command))
    throw new UsageError(`unknown command "${command}"`);
  return [command as Command, rest];
}

/** node:util's `parseArgs` (strict, positionals allowed), its complaints as UsageErrors. */
export function parseCommandLine<const Options extends OptionsConfig>(args: string[], options: Options) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export interface CommandLineTool {
  /** The npm script's name; messages start with it (`apikey: …`). */
  name: string;
  usage: string;
  /** Runs the command line (help aside); resolves with the exit status, 0 when it gives none. */
  main(argv: string[]): Promise<number | undefined>;
}

/**
 * Runs a tool on this process's arguments: the usage for help; a UsageError's message and the usage on stderr,
 * status 2; any other error's message alone (no stack: it is for a person), status 1.
 */
export async function runTool({ name, usage, main }: CommandLineTool): Promise<void> {
  const argv = process.argv.slice(2);
  if (isHelpRequest(argv)) {
    console.log(usage);
    return;
  }
  try {
    process.exitCode = (await main(argv)) ?? 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(error instanceof UsageError ? `${name}: ${message}\n\n${usage}` : `${name}: ${message}`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  }
}
