// V8 settings the gateway makes for its own process, imported first by main.ts: before anything compiles
// WebAssembly or the heap grows. Heap space sizes cannot be set this way (V8 fixes them when the process starts):
// `npm start` gives the young generation's size on its command line. Effects: docs/performance.md, "Memory".
import v8 from 'node:v8';

// Prisma's query compiler is WebAssembly. V8 compiles the busy functions again with TurboFan on background
// threads, whose working memory stays resident in the C allocator's arenas for the life of the process; the
// compiler runs once per query shape (Prisma caches the plans), so its first code, Liftoff's, is fast enough.
v8.setFlagsFromString('--liftoff-only');

// The old generation may reach twice what is live before a full collection (V8's default allows up to four times):
// with the young generation `npm start` gives (package.json, --max-semi-space-size), RSS stays flat under load
// without costing CPU; a tighter old generation cost CPU and tail latency (docs/performance.md, levers 12-14).
v8.setFlagsFromString('--heap-growing-percent=100');
