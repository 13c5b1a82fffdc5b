// The one table of a run, printed and kept in bench/results/<timestamp>.md and .json for comparison.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadResult, LoadSettings } from './load.ts';
import { REPO_ROOT } from './processes.ts';
import type { RssReport } from './rss.ts';

export interface Row {
  scenario: string;
  server: string;
  /** Absent when the scenario was not measured; `note` says why. */
  result?: LoadResult;
  note?: string;
  /** Throughput as a fraction of the baseline doing the same work. */
  vsBaseline?: number;
  /** REST throughput as a fraction of GraphQL's for the same read. */
  restVsGraphql?: number;
}

export interface Report {
  timestamp: string;
  commit: string;
  node: string;
  cpus: number;
  cpuModel: string;
  /** 1-minute load average when the run began: other work on the machine skews every figure. */
  loadAverage: number;
  settings: Omit<LoadSettings, 'headers'> & { soakSeconds: number; workers: number };
  notes: string[];
  rows: Row[];
  /** Memory during the soak, and what the soak's load achieved (a refused load would prove nothing). */
  rss?: RssReport & { seconds: number; load: LoadResult };
}

export function describeMachine(): Pick<
  Report,
  'timestamp' | 'commit' | 'node' | 'cpus' | 'cpuModel' | 'loadAverage'
> {
  return {
    timestamp: new Date().toISOString(),
    commit: gitCommit(),
    node: process.version,
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    loadAverage: os.loadavg()[0] ?? 0,
  };
}

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

export function renderTable(rows: Row[]): string {
  const header = [
    'Scenario',
    'Server',
    'req/s',
    'p50 ms',
    'p99 ms',
    'vs baseline',
    'REST/GraphQL',
    'errors',
    'non-2xx',
  ];
  const lines = [tableLine(header), tableLine(header.map((_, i) => (i < 2 ? '---' : '---:')))];
  for (const row of rows) {
    const r = row.result;
    lines.push(
      tableLine(
        r
          ? [
              row.scenario,
              row.server,
              Math.round(r.requestsPerSecond).toString(),
              r.p50Ms.toFixed(1),
              r.p99Ms.toFixed(1),
              failedTooOften(r) ? 'n/a (failures)' : percent(row.vsBaseline),
              failedTooOften(r) ? '' : percent(row.restVsGraphql),
              r.errors.toString(),
              non2xxText(r.non2xx),
            ]
          : [row.scenario, row.server, row.note ?? 'n/a', '', '', '', '', '', ''],
      ),
    );
  }
  return lines.join('\n');
}

export function renderRss(rss: NonNullable<Report['rss']>): string {
  const mb = (value: number) => `${value.toFixed(1)} MB`;
  return (
    `Gateway RSS under ${rss.seconds} s of read load (after warm-up; mean of the first and of the last samples): ${mb(rss.startMb)} -> ${mb(rss.endMb)} ` +
    `(peak ${mb(rss.peakMb)}), growth ${rss.growthPercent >= 0 ? '+' : ''}${rss.growthPercent.toFixed(1)}%; ` +
    `load ${Math.round(rss.load.requestsPerSecond)} req/s, ${rss.load.errors} errors, non-2xx ${non2xxText(rss.load.non2xx)}`
  );
}

export function renderReport(report: Report): string {
  const { settings } = report;
  return [
    `# Benchmark ${report.timestamp}`,
    '',
    `Commit ${report.commit}, Node ${report.node}, ${report.cpus} CPU(s) (${report.cpuModel}), ` +
      `load average ${report.loadAverage.toFixed(1)} at the start.`,
    `${settings.connections} connections, ${settings.warmupSeconds} s warm-up then ${settings.durationSeconds} s per row; ` +
      `the gateway with ${settings.workers} worker(s).`,
    ...report.notes.map((note) => `- ${note}`),
    '',
    renderTable(report.rows),
    ...(report.rss ? ['', renderRss(report.rss)] : []),
    '',
  ].join('\n');
}

/** A file in bench/results/ named after a run's time (`:` is not allowed in file names everywhere). */
export function resultFile(timestamp: string, suffix: string): string {
  const dir = path.join(REPO_ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `${timestamp.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z')}${suffix}`);
}

/** Writes bench/results/<timestamp>.md and .json; answers the path of the Markdown file. */
export function saveReport(report: Report): string {
  const markdown = resultFile(report.timestamp, '.md');
  writeFileSync(markdown, renderReport(report));
  writeFileSync(resultFile(report.timestamp, '.json'), `${JSON.stringify(report, null, 2)}\n`);
  return markdown;
}
