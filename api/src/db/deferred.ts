/**
 * Statement arguments the writer computes, not the caller (issue 13: sealing and HMACs were a
 * fifth of a vote's event-loop time). A vote's statements carry `Sealed` and `Fingerprinted`
 * deferred arguments, the ballot mixer's an `Unsealed` batch; the executor computes them right
 * before the statements run: in the writer thread for a database file (writer-thread.ts), so
 * that CPU is spent on the otherwise idle second core, or on the caller's thread for any other
 * URL (writer.ts, `clientExecutor`). Either way the value is exactly what `sealPadded` /
 * `fingerprint` / `unsealPadded` return for the same input.
 *
 * Across the thread a deferred argument travels as a plain object naming its keys by number
 * (`WireDeferred`): a statement argument is otherwise never an object, so nothing else can
 * be mistaken for one. Keys cross once per set (`KeyDefs`), never with each statement.
 */
import type { InArgs, InStatement, InValue } from "@libsql/client";
import { fingerprint, type Keys } from "../security/keys.ts";
import { sealPadded, unsealPadded } from "../security/padded-seal.ts";

/** `sealPadded(keys, value, context, size)`, computed by the writer. */
export class Sealed {
  constructor(
    readonly keys: DeferredKeys,
    readonly value: unknown,
    readonly context: string,
    readonly size: number,
  ) {}
}

/** `fingerprint(keys, text)`, computed by the writer. */
export class Fingerprinted {
  constructor(
    readonly keys: DeferredKeys,
    readonly text: string,
  ) {}
}

/**
 * Sealed records, unsealed by the writer (the ballot mixer's pending ballots): each entry is
 * [id, sealed], sealed under the context `prefix + id`. Resolves to one JSON text, an array
 * of [id, ...fields] for every entry that unseals, `fields` naming the record's properties
 * in order; an entry that does not unseal (another key, damaged) is left out.
 */
export class Unsealed {
  constructor(
    readonly keys: DeferredKeys,
    readonly prefix: string,
    readonly fields: readonly string[],
    readonly entries: readonly (readonly [id: string, sealed: string])[],
  ) {}
}

export type Deferred = Sealed | Fingerprinted | Unsealed;

/** The two keys a deferred argument may need. */
export type DeferredKeys = Pick<Keys, "seal" | "fingerprint">;

/** A statement whose arguments may hold deferred arguments (what BatchWriter.submit takes). */
export type WriteStatement = InStatement | { sql: string; args: (InValue | Deferred)[] };

/** A deferred argument as it crosses to the writer thread: `s` sealed, `f` fingerprint, `u` unsealed; `k` its keys' number. */
export type WireDeferred =
  | { s: [k: number, value: unknown, context: string, size: number] }
  | { f: [k: number, text: string] }
  | { u: [k: number, prefix: string, fields: readonly string[], entries: readonly (readonly [string, string])[]] };

/** Key sets the thread has not seen yet: number, seal key, fingerprint key. */
export type KeyDefs = [number, Buffer, Buffer][];

const isDeferred = (value: unknown): value is Deferred => value instanceof Sealed || value instanceof Fingerprinted || value instanceof Unsealed;

/** One entry of an `Unsealed` batch, or null when it does not unseal (another key, damaged). */
export function unsealEntry<T extends object>(keys: Pick<Keys, "seal">, prefix: string, id: string, sealed: string): T | null {
  try {
    return unsealPadded<T>(keys as Keys, sealed, prefix + id);
  } catch {
    return null;
  }
}

function unsealAll(keys: Keys, prefix: string, fields: readonly string[], entries: readonly (readonly [string, string])[]): string {
  const out: unknown[][] = [];
  for (const [id, sealed] of entries) {
    const record = unsealEntry<Record<string, unknown>>(keys, prefix, id, sealed);
    // Left out when it does not unseal: the caller finds it missing from what was applied.
    if (record) out.push([id, ...fields.map((f) => record[f] ?? null)]);
  }
  return JSON.stringify(out);
}

function compute(d: Deferred): string {
  if (d instanceof Sealed) return sealPadded(d.keys as Keys, d.value, d.context, d.size);
  if (d instanceof Fingerprinted) return fingerprint(d.keys as Keys, d.text);
  return unsealAll(d.keys as Keys, d.prefix, d.fields, d.entries);
}

/** Deferred arguments replaced by their values, here (the caller's thread). Statements without any are returned as they are. */
export function resolveHere(statements: WriteStatement[]): InStatement[] {
  return statements.map((st) => {
    if (typeof st === "string" || !Array.isArray(st.args) || !st.args.some(isDeferred)) return st as InStatement;
    return { sql: st.sql, args: st.args.map((a) => (isDeferred(a) ? compute(a) : a)) as InValue[] };
  });
}

/** Numbers the key sets a process sends to its writer thread; a new thread starts from none. */
export class KeyRegistry {
  private ids = new WeakMap<DeferredKeys, number>();
  private next = 1;

  reset(): void {
    this.ids = new WeakMap();
  }

  /** Deferred arguments turned into their wire form; key sets the thread lacks are added to `defs`. */
  toWire(args: InArgs | (InValue | Deferred)[] | undefined, defs: KeyDefs): InArgs | undefined {
    if (!Array.isArray(args) || !args.some(isDeferred)) return args as InArgs | undefined;
    return args.map((a) => {
      if (!isDeferred(a)) return a;
      let id = this.ids.get(a.keys);
      if (id === undefined) {
        id = this.next++;
        this.ids.set(a.keys, id);
        defs.push([id, a.keys.seal, a.keys.fingerprint]);
      }
      const wire: WireDeferred =
        a instanceof Sealed ? { s: [id, a.value, a.context, a.size] } : a instanceof Fingerprinted ? { f: [id, a.text] } : { u: [id, a.prefix, a.fields, a.entries] };
      return wire as unknown as InValue;
    }) as InArgs;
  }
}

/** The writer thread's side: key sets by number, and deferred arguments in wire form replaced by their values. */
export class ThreadKeys {
  private readonly sets = new Map<number, Keys>();

  define(defs: KeyDefs | undefined): void {
    for (const [id, seal, fp] of defs ?? []) this.sets.set(id, { seal: Buffer.from(seal), fingerprint: Buffer.from(fp) } as Keys);
  }

  resolve(args: InArgs | undefined): InArgs | undefined {
    if (!Array.isArray(args)) return args;
    let out: InValue[] | null = null;
    for (let i = 0; i < args.length; i++) {
      const a = args[i] as unknown;
      if (a === null || typeof a !== "object" || ArrayBuffer.isView(a) || a instanceof ArrayBuffer || a instanceof Date) continue;
      const wire = a as WireDeferred;
      out ??= args.slice();
      if ("s" in wire) {
        const [k, value, context, size] = wire.s;
        out[i] = sealPadded(this.keys(k), value, context, size);
      } else if ("f" in wire) {
        const [k, text] = wire.f;
        out[i] = fingerprint(this.keys(k), text);
      } else {
        const [k, prefix, fields, entries] = wire.u;
        out[i] = unsealAll(this.keys(k), prefix, fields, entries);
      }
    }
    return out ?? args;
  }

  private keys(id: number): Keys {
    const keys = this.sets.get(id);
    if (!keys) throw new Error(`writer thread: key set ${id} was never sent`);
    return keys;
  }
}
