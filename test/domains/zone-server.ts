import dns2 from 'dns2';

const { Packet } = dns2;

export type ZoneRecord =
  | { type: 'A' | 'AAAA' | 'CNAME'; value: string }
  | { type: 'CAA'; tag: 'issue' | 'iodef'; value: string };

/** Records by owner name (lower case, no trailing dot). */
export type Zones = Record<string, readonly ZoneRecord[]>;

export interface ZoneServer {
  /** `127.0.0.1:<port>`, as the `resolvers` configuration and dns.setServers take it. */
  address: string;
  close(): Promise<void>;
}

const typeCodes = {
  A: Packet.TYPE.A,
  AAAA: Packet.TYPE.AAAA,
  CNAME: Packet.TYPE.CNAME,
  CAA: Packet.TYPE.CAA,
};

function toResource(name: string, record: ZoneRecord): Partial<dns2.Packet.Resource> {
  const base = { name, type: typeCodes[record.type], class: Packet.CLASS.IN, ttl: 3600 };
  switch (record.type) {
    case 'CNAME':
      return { ...base, domain: record.value };
    case 'CAA':
      return { ...base, flags: 0, tag: record.tag, value: record.value };
    default:
      return { ...base, address: record.value };
  }
}

/**
 * Answers like an authoritative server that also resolves in-zone aliases: the records of the asked type at the
 * name, else the name's CNAME followed by the answer for its target. It serves whatever it is given, so a zone
 * can hold an A record beside a CNAME, as a misconfigured provider would.
 */
function answer(zones: Zones, name: string, type: number): Partial<dns2.Packet.Resource>[] {
  const records = zones[name] ?? [];
  const direct = records.filter((record) => typeCodes[record.type] === type);
  if (direct.length > 0 || type === Packet.TYPE.CNAME)
    return direct.map((record) => toResource(name, record));
  const alias = records.find((record) => record.type === 'CNAME');
  if (!alias) return [];
  return [toResource(name, alias), ...answer(zones, alias.value.toLowerCase(), type)];
}

export async function startZoneServer(zones: Zones): Promise<ZoneServer> {
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      if (question) {
        const name = question.name.toLowerCase();
        if (name in zones)
          response.answers.push(...(answer(zones, name, question.type) as dns2.Packet.Resource[]));
        else response.header.rcode = 3; // NXDOMAIN
      }
      send(response);
    },
  });
  const { udp } = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  if (!udp) throw new Error('the DNS test server did not bind UDP');
  return { address: `127.0.0.1:${udp.port}`, close: () => server.close() };
}
