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

// Under load a request's objects often outlive two scavenges and are promoted; V8 then let the old generation grow
// to about three times what stays live (150 MB for 45-50 MB) before collecting it, so RSS climbed for the first
// half minute of load to about 285 MB. Growing by half of what is live instead keeps it near 190 MB, reached within
// seconds, for more frequent full collections (their CPU cost is in docs/performance.md: re-take it when tuning).
v8.setFlagsFromString('--heap-growing-percent=50');
