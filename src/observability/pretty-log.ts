import PinoPretty from 'pino-pretty';

/** A request's line, as the request observer writes it (observability/requests.ts). */
interface RequestLine {
  msg: 'request';
  reqId?: string;
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
  api?: string;
  operation?: string;
  ip?: string;
  [field: string]: unknown;
}

/**
 * Turns JSON log lines into lines a person reads in a terminal (pino-pretty): the time, the level, the process
 * id and the message on one line, other fields indented under it; a request's line is one line of its own
 * (`200 GET /pets 1.2 ms  rest listPets`). Text that is not a JSON line passes unchanged.
 */
export function createPrettyFormatter(): (lines: string) => string {
  const pretty = PinoPretty.prettyFactory({ ignore: 'hostname', translateTime: 'SYS:HH:MM:ss.l' });
  const formatLine = (line: string) => {
    if (!line.startsWith('{')) return `${line}\n`;
    let log: Record<string, unknown>;
    try {
      log = JSON.parse(line);
    } catch {
      return `${line}\n`;
    }
    return pretty(log.msg === 'request' ? summarise(log as RequestLine) : log);
  };
  return (lines) => {
    let text = '';
    for (const line of lines.split('\n')) if (line) text += formatLine(line);
    return text;
  };
}

function summarise({ reqId, method, path, status, ms, api, operation, ip, msg: _, ...rest }: RequestLine) {
  return { ...rest, msg: `${status} ${method} ${path} ${ms} ms  ${api} ${operation}  ${ip} ${reqId}` };
}
