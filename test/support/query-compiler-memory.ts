// Run as a process of its own by test/process/v8-flags.test.ts: with the gateway's V8 settings (or without, when
// told), reads through Prisma until its query compiler has been busy, then prints V8's peak of C-allocated memory
// in bytes. A process of its own because V8's settings and its peak are for the life of a process.
import v8 from 'node:v8';
import { openDatabase } from '../../src/db/client.ts';

if (process.argv[3] !== 'without-settings') await import('../../src/process/v8-flags.ts');
const db = await openDatabase(process.argv[2] as string);
// Query shapes the compiler has not seen (each `take` a plan of its own), and the same ones again.
for (let i = 0; i < 300; i++) {
  await db.prisma.pet.findMany({ where: { id: { gt: i } }, take: 1 + (i % 30), include: { category: true } });
}
await db.close();
console.log(v8.getHeapStatistics().peak_malloced_memory);
