// V8 settings the gateway makes for its own process, imported first by main.ts: before anything compiles
// WebAssembly or the heap grows. (Heap space sizes cannot be set this way: V8 fixes them when the process starts.)
// Their effect is measured in docs/performance.md, "Memory".
import v8 from 'node:v8';

// Prisma's query compiler is WebAssembly (3.3 MB). V8 compiles its functions with Liftoff as they are first
// called, then compiles the busy ones again with TurboFan on background threads; TurboFan's working memory, about
// 40 MB, is freed but stays resident in the C allocator's per-thread arenas: +45 MB RSS for the life of the
// process. The compiler runs once per query shape (Prisma caches the plans), so the optimized code made no
// measurable difference to CPU per request; Liftoff's code is kept.
v8.setFlagsFromString('--liftoff-only');

// Not `--heap-growing-percent=50`: it kept the heap 50-180 MB smaller under load for 9-18% more CPU per request
// and 10-18 ms more p99 (docs/performance.md, "Memory").
