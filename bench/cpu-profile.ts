// Where a V8 CPU profile (.cpuprofile, from `node --cpu-prof`) spent its time: self time by function and by
// the package or source folder the function lives in.

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
  /** Microseconds since the previous sample. */
  timeDeltas: number[];
}

/** The V8 pseudo-functions that are not code: (idle), (program), (garbage collector), (root). */
const isPseudo = (frame: CallFrame) => frame.url === '' && frame.functionName.startsWith('(');

/** node_modules/<package> (the innermost, with its scope), src/<folder>, a Node module, or the pseudo-function. */
export function areaOf(frame: CallFrame): string {
  if (isPseudo(frame)) return frame.functionName;
  const url = frame.url;
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [first = '', second = ''] = url.slice(modules + '/node_modules/'.length).split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  if (url.startsWith('node:')) return url.replace(/^(node:(?:internal\/)?[^/]+).*$/, '$1');
  const source = /\/(src|bench)\/(?:([^/]+)\/)?/.exec(url);
  if (source) return source[2] ? `${source[1]}/${source[2]}` : `${source[1]}`;
  return url || '(native)';
}

function functionOf(frame: CallFrame): string {
  if (isPseudo(frame)) return frame.functionName;
  const file = frame.url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench)\//, '$1/');
  return `${frame.functionName || '(anonymous)'}  ${file || '(native)'}:${frame.lineNumber + 1}`;
}

/** The samples taken from `fromMs` after the profile started, as [node id, microseconds]. */
function samplesFrom(profile: CpuProfile, fromMs: number): [number, number][] {
  let elapsed = 0;
  return profile.samples.flatMap((nodeId, i): [number, number][] => {
    const delta = profile.timeDeltas[i] ?? 0;
    elapsed += delta;
    return elapsed >= fromMs * 1000 ? [[nodeId, delta]] : [];
  });
}

function selfTimes(profile: CpuProfile, samples: [number, number][], key: (frame: CallFrame) => string) {
  const keyOfNode = new Map(profile.nodes.map((node) => [node.id, key(node.callFrame)]));
  const times = new Map<string, number>();
  for (const [nodeId, delta] of samples) {
    const name = keyOfNode.get(nodeId) ?? '(unknown)';
    times.set(name, (times.get(name) ?? 0) + delta);
  }
  return times;
}

function topLines(times: Map<string, number>, busy: number, count: number): string[] {
  return [...times]
    .filter(([name]) => name !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(
      ([name, time]) =>
        `${((time / busy) * 100).toFixed(1).padStart(5)}%  ${(time / 1000).toFixed(0).padStart(6)} ms  ${name}`,
    );
}

/** `fromMs` leaves out the start of the profile (start-up and warm-up). */
export function summarizeProfile(profile: CpuProfile, { fromMs = 0, count = 25 } = {}): string {
  const samples = samplesFrom(profile, fromMs);
  const total = samples.reduce((sum, [, delta]) => sum + delta, 0);
  const byArea = selfTimes(profile, samples, areaOf);
  const busy = total - (byArea.get('(idle)') ?? 0);
  return [
    `Sampled ${(total / 1e6).toFixed(1)} s${fromMs ? ` (after the first ${(fromMs / 1000).toFixed(1)} s)` : ''}, busy ${(busy / 1e6).toFixed(1)} s (${((busy / total) * 100).toFixed(0)}%); ` +
      'shares below are of the busy time.',
    '',
    'Self time by package or source folder:',
    ...topLines(byArea, busy, count),
    '',
    `Top ${count} functions by self time:`,
    ...topLines(selfTimes(profile, samples, functionOf), busy, count),
  ].join('\n');
}
