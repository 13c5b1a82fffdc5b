// V8 settings the gateway makes for its own process, imported first by main.ts: before anything compiles
// WebAssembly. (Heap sizes cannot be set this way: V8 fixes them when the process starts.)
import v8 from 'node:v8';

// Prisma's query compiler is WebAssembly (3.3 MB). V8 compiles its functions with Liftoff as they are first
// called, then compiles the busy ones again with TurboFan on background threads; TurboFan's working memory, about
// 40 MB, is freed but stays resident in the C allocator's per-thread arenas: +45 MB RSS for the life of the
// process. The compiler runs once per query shape (Prisma caches the plans), so the optimized code made no
// measurable difference to CPU per request (docs/performance.md, "Memory"); Liftoff's code is kept.
v8.setFlagsFromString('--liftoff-only');
