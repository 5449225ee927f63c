/**
 * zod 4 probes `new Function("")` the first time it parses, to decide whether to compile fast
 * parsers. The server's CSP forbids eval (script-src 'self'), so the probe is blocked and the
 * browser records a CSP violation on every page (Lighthouse best practices: inspector issues).
 * `jitless` tells zod not to probe. zod reads this global when it loads, and it loads only in
 * later chunks, so setting it first thing in the entry is early enough.
 */
const host = globalThis as { __zod_globalConfig?: Record<string, unknown> };
host.__zod_globalConfig = { ...host.__zod_globalConfig, jitless: true };

export {};
