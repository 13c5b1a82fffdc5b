// WORKERS > 1 without Redis: each worker sends its changes to the primary, which relays them to every worker.
import { relayToWorkers, sendToAllWorkers } from '../cluster/ipc.ts';
import { type BusLog, type ChangeBus, Listeners } from './bus.ts';
import { parseChange } from './change.ts';

const CHANNEL = 'petstore:changes';

/** In the primary: relays the workers' changes. */
export function relayChanges(log: BusLog): void {
  relayToWorkers(CHANNEL, log);
}

/** In a worker: changes of every worker, through the primary's `relayChanges`. */
export function openClusterChangeBus(log: BusLog): ChangeBus {
  const listeners = new Listeners(log);
  const send = sendToAllWorkers(CHANNEL, log, (payload) => {
    if (!Array.isArray(payload)) return;
    for (const value of payload) {
      const change = parseChange(value);
      if (change) listeners.deliver(change);
    }
  });
  return {
    publish: (changes) => send(changes),
    listen: (listener) => listeners.add(listener),
    close: async () => {},
  };
}
