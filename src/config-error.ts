/** A setting that stops the process at start: its message lists every problem, one per line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
