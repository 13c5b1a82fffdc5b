// V8 settings the gateway makes for its own process, imported first by main.ts: before anything compiles
// WebAssembly or the heap grows. Heap space sizes cannot be set this way (V8 fixes them when the process starts):
// `npm start` gives the young generation's size on its command line. Effects: docs/performance.md, "Memory".
import v8 from 'node:v8';

// Prisma's query compiler is WebAssembly (3.3 MB). V8 compiles its functions with Liftoff as they are first
// called, then compiles the busy ones again with TurboFan on background threads; TurboFan's working memory, about
// 40 MB, is freed but stays resident in the C allocator's per-thread arenas: +45 MB RSS for the life of the
// process. The compiler runs once per query shape (Prisma caches the plans), so the optimized code made no
// measurable difference to CPU per request; Liftoff's code is kept.
v8.setFlagsFromString('--liftoff-only');

// The old generation may reach twice what is live before a full collection (V8's default allows up to four times):
// with the young generation `npm start` gives (package.json, --max-semi-space-size), RSS stays flat under a mixed
// load with the response cache on, at no measured cost in CPU. 1.5 times (50) cost 9-18% CPU (docs/performance.md).
v8.setFlagsFromString('--heap-growing-percent=100');
