/**
 * Statement arguments the writer computes, not the caller (issue 13: sealing and HMACs were a
 * fifth of a vote's event-loop time). A vote's statements carry `Sealed` and `Fingerprinted`
 * deferred arguments; the executor turns them into the sealed text and the HMAC right before the
 * statements run: in the writer thread for a database file (writer-thread.ts), so that CPU
 * is spent on the otherwise idle second core, or on the caller's thread for any other URL
 * (writer.ts, `clientExecutor`). Either way the value stored is exactly what
 * `sealPadded` / `fingerprint` return for the same input.
 *
 * Across the thread a deferred argument travels as a plain object naming its keys by number
 * (`WireDeferred`): a statement argument is otherwise never an object, so nothing else can
 * be mistaken for one. Keys cross once per set (`KeyDefs`), never with each statement.
 */
import type { InArgs, InStatement, InValue } from "@libsql/client";
import { fingerprint, type Keys } from "../security/keys.ts";
import { sealPadded } from "../security/padded-seal.ts";

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

export type Deferred = Sealed | Fingerprinted;

/** The two keys a deferred argument may need. */
export type DeferredKeys = Pick<Keys, "seal" | "fingerprint">;

/** A statement whose arguments may hold deferred arguments (what BatchWriter.submit takes). */
export type WriteStatement = InStatement | { sql: string; args: (InValue | Deferred)[] };

/** A deferred argument as it crosses to the writer thread: `s` sealed, `f` fingerprint; `k` its keys' number. */
export type WireDeferred = { s: [k: number, value: unknown, context: string, size: number] } | { f: [k: number, text: string] };

/** Key sets the thread has not seen yet: number, seal key, fingerprint key. */
export type KeyDefs = [number, Buffer, Buffer][];

const isDeferred = (value: unknown): value is Deferred => value instanceof Sealed || value instanceof Fingerprinted;

function compute(d: Deferred): string {
  return d instanceof Sealed ? sealPadded(d.keys as Keys, d.value, d.context, d.size) : fingerprint(d.keys as Keys, d.text);
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
      return (a instanceof Sealed ? { s: [id, a.value, a.context, a.size] } : { f: [id, a.text] }) as unknown as InValue;
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
      } else {
        const [k, text] = wire.f;
        out[i] = fingerprint(this.keys(k), text);
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
