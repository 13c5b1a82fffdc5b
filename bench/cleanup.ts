// Undo steps registered while the benchmark sets up (child processes, temporary files, a PostgreSQL schema),
// run in reverse order on the way out: at the end, on an error, or on Ctrl-C.
type Step = () => Promise<void> | void;

const steps: Step[] = [];

export function onCleanup(step: Step): void {
  steps.push(step);
}

export async function cleanUp(): Promise<void> {
  for (let step = steps.pop(); step; step = steps.pop()) {
    try {
      await step();
    } catch (error) {
      console.error('cleanup step failed:', error);
    }
  }
}

/** Ctrl-C or a kill still stops the servers the benchmark started. */
function cleanUpOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the servers`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
}

/** A benchmark command's whole run: `main`, then the undo steps, whether it ended, failed or was interrupted. */
export async function runWithCleanup(main: () => Promise<void>): Promise<void> {
  cleanUpOnSignals();
  try {
    await main();
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    await cleanUp();
  }
}
