// The one table of a run, printed and kept in bench/results/<database>.md and .json for comparison.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadResult, LoadSettings } from './load.ts';
import { REPO_ROOT } from './processes.ts';
import type { RssReport } from './rss.ts';

export interface Row {
  scenario: string;
  baseline: LoadResult;
  gateway: LoadResult;
  /** Gateway throughput as a fraction of the baseline's, asking the same question. */
  ratio: number;
  /** REST throughput as a fraction of GraphQL's for the same read. */
  restVsGraphql?: number;
  /** The mixed row on the gateway: response-cache hits among the query operations it looked up. */
  cacheHitRatio?: number;
}

export interface Table {
  title: string;
  /** What the two sides were, in a sentence. */
  sides: string;
  /** Headings of the two sides' req/s and of their ratio, when they are not the baseline and the gateway. */
  columns?: [string, string, string];
  rows: Row[];
}

export interface ClusterRow {
  instances: number;
  total: LoadResult;
  /** Responses per second each gateway answered (HAProxy's counts over the measured seconds). */
  perInstance: number[];
  /** Total req/s over the one-instance row's. */
  scaling: number;
}

export interface Report {
  timestamp: string;
  commit: string;
  database: 'SQLite' | 'PostgreSQL';
  node: string;
  cpus: number;
  cpuModel: string;
  /** 1-minute load average when the run began: other work on the machine skews every figure. */
  loadAverage: number;
  settings: Omit<LoadSettings, 'headers'> & { rssSeconds: number; workers: number; quick: boolean };
  notes: string[];
  tables: Table[];
  /** One gateway process, after start-up and a short warm-up, before the rows (MB). */
  idleRssMb?: number;
  /** RSS 15 s after a burst of page reads, and how many. */
  afterBurst?: { pages: number; rssMb: number };
  /** Memory under the mixed row (BENCH_RSS=1): minute 1 against the last minute. */
  rss?: RssReport & { seconds: number; load: LoadResult };
  cluster?: ClusterRow[];
}

export function describeMachine(): Pick<
  Report,
  'timestamp' | 'commit' | 'node' | 'cpus' | 'cpuModel' | 'loadAverage'
> {
  return {
    timestamp: new Date().toISOString(),
    commit: COMMIT,
    node: process.version,
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    loadAverage: os.loadavg()[0] ?? 0,
  };
}

// Read once, when the run starts: the first database's report, written into bench/results/, must not make the
// second's look like uncommitted code.
const COMMIT = gitCommit();

function gitCommit(): string {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: 'pipe' }).trim();
  let commit: string;
  try {
    commit = git('rev-parse', '--short', 'HEAD');
  } catch {
    commit = 'none yet';
  }
  return git('status', '--porcelain') ? `${commit} with uncommitted changes` : commit;
}

const percent = (ratio: number | undefined) => (ratio === undefined ? '' : `${(ratio * 100).toFixed(1)}%`);

/** Failed responses are often the fastest: past 1% of them, a throughput ratio says nothing. */
function failedTooOften({ requests, errors, non2xx }: LoadResult): boolean {
  const failures = errors + Object.values(non2xx).reduce((sum, count) => sum + count, 0);
  return failures > requests / 100;
}

function non2xxText(non2xx: Record<string, number>): string {
  const entries = Object.entries(non2xx);
  return entries.length ? entries.map(([status, count]) => `${count} × ${status}`).join(', ') : '0';
}

function tableLine(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

const whole = (value: number) => Math.round(value).toString();

export function renderTable({ title, sides, columns, rows }: Table): string {
  const [left, right, ratio] = columns ?? ['baseline req/s', 'gateway req/s', 'gateway/baseline'];
  const header = [
    'Row',
    left,
    right,
    ratio,
    'p50 ms',
    'p99 ms',
    `${left.replace(/ req\/s$/, '')} p99 ms`,
    'CPU µs/req (left / right)',
    'ratio by CPU',
    'REST/GraphQL',
    'cache hits',
    'failed (gateway)',
  ];
  const lines = [
    `### ${title}`,
    '',
    sides,
    '',
    tableLine(header),
    tableLine(header.map((_, i) => (i === 0 ? '---' : '---:'))),
  ];
  for (const row of rows) {
    const { gateway: g, baseline: b } = row;
    const unusable = failedTooOften(g) || failedTooOften(b);
    lines.push(
      tableLine([
        row.scenario,
        whole(b.requestsPerSecond),
        whole(g.requestsPerSecond),
        unusable ? 'n/a (failures)' : percent(row.ratio),
        g.p50Ms.toFixed(1),
        g.p99Ms.toFixed(1),
        b.p99Ms.toFixed(1),
        `${whole(b.cpuUsPerRequest ?? 0)} / ${whole(g.cpuUsPerRequest ?? 0)}`,
        b.cpuUsPerRequest && g.cpuUsPerRequest ? percent(b.cpuUsPerRequest / g.cpuUsPerRequest) : '',
        unusable ? '' : percent(row.restVsGraphql),
        percent(row.cacheHitRatio),
        failures(g),
      ]),
    );
  }
  return lines.join('\n');
}

function failures(result: LoadResult): string {
  const non2xx = non2xxText(result.non2xx);
  return result.errors || non2xx !== '0' ? `${result.errors} errors, non-2xx ${non2xx}` : '0';
}

export function renderCluster(rows: ClusterRow[]): string {
  const header = ['gateways', 'total req/s', 'per gateway req/s', 'scaling vs 1', 'p99 ms', 'failed'];
  return [
    '### Behind HAProxy: 1, 2, 3 gateways on one PostgreSQL and one Redis',
    '',
    'GraphQL pet(id) + category name through HAProxy (round robin), each gateway one process with its rate-limit ' +
      'counters in Redis. HAProxy, PostgreSQL, Redis, every gateway and the load generator share the same ' +
      'CPUs: past the cores there are, more instances only divide them, so this shows the cost of the set-up ' +
      "rather than how it scales across machines. A 503 is HAProxy's own: it took a gateway out when its " +
      '/readyz check (1 s timeout) went unanswered on starved cores.',
    '',
    tableLine(header),
    tableLine(header.map((_, i) => (i === 0 ? '---' : '---:'))),
    ...rows.map((row) =>
      tableLine([
        String(row.instances),
        whole(row.total.requestsPerSecond),
        row.perInstance.map(whole).join(' / '),
        `${row.scaling.toFixed(2)}x`,
        row.total.p99Ms.toFixed(1),
        failures(row.total),
      ]),
    ),
  ].join('\n');
}

export function renderRss(rss: NonNullable<Report['rss']>): string {
  const mb = (value: number) => `${value.toFixed(1)} MB`;
  return (
    `Gateway RSS under ${rss.seconds} s of the mixed row (mean of minute 1's samples -> mean of the last minute's): ` +
    `${mb(rss.startMb)} -> ${mb(rss.endMb)} (peak ${mb(rss.peakMb)}), growth ${rss.growthPercent >= 0 ? '+' : ''}` +
    `${rss.growthPercent.toFixed(1)}%; load ${whole(rss.load.requestsPerSecond)} req/s, ${failures(rss.load)} failed`
  );
}

export function renderReport(report: Report): string {
  const { settings } = report;
  return [
    `## ${report.database}: benchmark ${report.timestamp}`,
    '',
    `Commit ${report.commit}, Node ${report.node}, ${report.cpus} CPU(s) (${report.cpuModel}), ` +
      `load average ${report.loadAverage.toFixed(1)} at the start.`,
    `${settings.connections} connections, ${settings.warmupSeconds} s warm-up then ${settings.durationSeconds} s, ` +
      `twice per side and row (A B B A; figures are the means, p50 and p99 the means of the two)${settings.quick ? ' (BENCH_QUICK: short rows, not figures to quote)' : ''}.`,
    ...report.notes.map((note) => `- ${note}`),
    '',
    ...report.tables.flatMap((table) => [renderTable(table), '']),
    ...(report.idleRssMb !== undefined
      ? [`Idle RSS of one gateway process (compiled JavaScript): ${report.idleRssMb.toFixed(1)} MB.`, '']
      : []),
    ...(report.afterBurst
      ? [
          `RSS of the same process 15 s after a burst of ${report.afterBurst.pages} page reads: ` +
            `${report.afterBurst.rssMb.toFixed(1)} MB.`,
          '',
        ]
      : []),
    ...(report.rss ? [renderRss(report.rss), ''] : []),
    ...(report.cluster ? [renderCluster(report.cluster), ''] : []),
  ].join('\n');
}

/**
 * bench/results/<database>.md and .json: the latest run replaces the one before (the report names its commit;
 * git keeps the earlier ones).
 */
export function saveReport(report: Report): string {
  const dir = path.join(REPO_ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const base = path.join(dir, report.database.toLowerCase());
  writeFileSync(`${base}.md`, renderReport(report));
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  return `${base}.md`;
}

/** A file in bench/results/ named after a time (profiles). */
export function resultFile(timestamp: string, suffix: string): string {
  const dir = path.join(REPO_ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `${timestamp.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')}${suffix}`);
}
