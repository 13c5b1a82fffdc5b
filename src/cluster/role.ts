import cluster from 'node:cluster';

// The primary marks the workers it forks: a node:cluster worker started by another primary (pm2's cluster
// mode, say) has no primary of ours to keep its rate-limit counters and gather its metrics.
const WORKER_MARKER = 'PETSTORE_GATEWAY_WORKER';

/** Added to the environment of each worker the gateway's primary forks. */
export const gatewayWorkerEnv = { [WORKER_MARKER]: '1' };

/** Whether this process is a worker forked by the gateway's own cluster primary (WORKERS > 1). */
export const isGatewayWorker = () => cluster.isWorker && process.env[WORKER_MARKER] === '1';
