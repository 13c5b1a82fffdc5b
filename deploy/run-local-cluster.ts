// `npm run cluster:local -- N`: N gateways on one PostgreSQL database and one Redis behind HAProxy, on loopback,
// until Ctrl-C or SIGTERM, which stop everything this started (the gateways drain first).
import { startLocalCluster } from './local-cluster.ts';

const USAGE = `usage: DATABASE_URL=postgresql://… npm run cluster:local -- <instances>

  <instances>   gateways to start, 1 to 16 (default 3)
  DATABASE_URL  the PostgreSQL database they share (required; the schema is created and migrated)
  REDIS_URL     the Redis they share (default redis://127.0.0.1:6379)
  PORT          HAProxy's port on 127.0.0.1 (default 8080)
Any other gateway setting in the environment reaches every gateway (over deploy/gateway.env.example).`;

async function main(): Promise<void> {
  const instances = Number(process.argv[2] ?? 3);
  const databaseUrl = process.env.DATABASE_URL ?? '';
  const port = Number(process.env.PORT ?? 8080);
  const problems = [
    ...(Number.isInteger(instances) && instances >= 1 && instances <= 16 ? [] : ['instances: 1 to 16']),
    ...(/^postgres(ql)?:\/\//.test(databaseUrl)
      ? []
      : ['DATABASE_URL must name a PostgreSQL database: every instance uses the same one']),
    ...(Number.isInteger(port) && port > 0 && port < 65536 ? [] : ['PORT must be a port number']),
  ];
  if (problems.length > 0) {
    console.error(`${problems.join('\n')}\n\n${USAGE}`);
    process.exit(2);
  }

  // Registered before anything starts: a Ctrl-C while starting stops the cluster once it is up. A second one
  // exits at once (the module's exit hook kills what is still running).
  let signals = 0;
  const stopAsked = new Promise<void>((resolve) => {
    const onSignal = () => {
      signals += 1;
      if (signals > 1) process.exit(1);
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });

  const cluster = await startLocalCluster({
    instances,
    databaseUrl,
    redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    port,
    env: { SEED_DEMO_DATA: 'true', ...process.env },
    detached: true,
    onLine: show,
  });
  console.log(
    `${instances} gateway(s) behind HAProxy on ${cluster.url} (GraphiQL ${cluster.url}/graphql, ` +
      `REST reference ${cluster.url}/docs, HAProxy's view ${cluster.statsUrl}). Ctrl-C stops them all.`,
  );
  await stopAsked;
  console.log('stopping: HAProxy at once, the gateways after their SHUTDOWN_DELAY_MS drain');
  await cluster.stop();
}

/** The gateways' own messages (not one line per request, unless it failed) and HAProxy's. */
function show(source: string, line: string): void {
  if (source !== 'haproxy') {
    try {
      const { level, msg } = JSON.parse(line) as { level: string; msg: string };
      if (msg === 'request' && level !== 'error') return;
      console.log(`[${source}] ${level} ${msg}`);
      return;
    } catch {
      // Not a log line (a stack trace): shown as it is.
    }
  }
  console.log(`[${source}] ${line}`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
