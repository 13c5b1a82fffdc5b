// A process that opens DATABASE_URL, says "ready", and seeds the demo catalogue as soon as a line arrives on
// stdin, then prints whether it seeded: several of them, told at once, race for an empty store.
import { createInterface } from 'node:readline';
import { openDatabase } from '../../src/db/client.ts';
import { seedDemoCatalogue } from '../../src/store/demo-catalogue.ts';

const db = await openDatabase(process.env.DATABASE_URL ?? '');
await db.ping();
const lines = createInterface({ input: process.stdin });
console.log('ready');
for await (const _ of lines) break;
console.log(JSON.stringify({ seeded: await seedDemoCatalogue(db) }));
await db.close();
