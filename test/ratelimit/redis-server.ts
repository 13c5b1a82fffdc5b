import {
  freePort,
  lineFrom,
  type StartedProcess,
  startProcess,
  stopProcess,
} from '../../deploy/processes.ts';

/** A redis-server of the test's own on a free port, so that a test can stop it without disturbing others. */
export class PrivateRedis {
  private started: StartedProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.resume();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** (Re)starts the server on the same port. */
  async resume(): Promise<void> {
    const started = startProcess(
      'redis-server',
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { env: { PATH: process.env.PATH } },
    );
    this.started = started;
    await lineFrom(started, (line) => line.includes('Ready to accept connections'));
  }

  async stop(): Promise<void> {
    if (this.started) await stopProcess(this.started.child, { signal: 'SIGKILL' });
  }
}
