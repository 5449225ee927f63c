/**
 * Test helper: reads a copy of a SQLite database file as an attacker with the raw file would,
 * without SQLite. For each b-tree of a table (the table and its indexes), it lists every page's
 * cells in the order their bytes were allocated: SQLite fills a page's cell area from its end
 * toward its start, so on a page not rebuilt since, the cell with the highest offset went in
 * first. That order is what a raw copy tells about when each row was written.
 * File format: https://www.sqlite.org/fileformat2.html (sections 1.3, 1.6, 2.1).
 */
import { readFileSync } from "node:fs";

interface Cell {
  offset: number;
  /** The record's values (text and integers; blobs and floats as null). */
  values: (string | number | null)[];
}

function varint(buf: Buffer, at: number): [value: number, next: number] {
  let value = 0;
  for (let i = 0; i < 8; i++) {
    const byte = buf[at + i];
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, at + i + 1];
  }
  return [value * 256 + buf[at + 8], at + 9];
}

function record(buf: Buffer, at: number): (string | number | null)[] {
  const [headerSize, afterSize] = varint(buf, at);
  const types: number[] = [];
  for (let p = afterSize; p < at + headerSize; ) {
    const [type, next] = varint(buf, p);
    types.push(type);
    p = next;
  }
  const values: (string | number | null)[] = [];
  let body = at + headerSize;
  const intSizes: Record<number, number> = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8 };
  for (const type of types) {
    if (type === 0) values.push(null);
    else if (type in intSizes) {
      values.push(type === 6 ? Number(buf.readBigInt64BE(body)) : buf.readIntBE(body, intSizes[type]));
      body += intSizes[type];
    } else if (type === 7) {
      values.push(null);
      body += 8;
    } else if (type === 8 || type === 9) values.push(type - 8);
    else if (type >= 13 && type % 2 === 1) {
      const length = (type - 13) / 2;
      values.push(buf.toString("utf8", body, body + length));
      body += length;
    } else {
      const length = (type - 12) / 2;
      values.push(null);
      body += length;
    }
  }
  return values;
}

/** Every page of the b-tree rooted at `root`, each with its cells (payloads that fit the page). */
function walk(buf: Buffer, pageSize: number, root: number): { page: number; cells: Cell[] }[] {
  const pages: { page: number; cells: Cell[] }[] = [];
  const visit = (page: number) => {
    const start = (page - 1) * pageSize;
    const header = start + (page === 1 ? 100 : 0);
    const type = buf[header];
    const interior = type === 2 || type === 5;
    const count = buf.readUInt16BE(header + 3);
    const pointers = header + (interior ? 12 : 8);
    const cells: Cell[] = [];
    for (let i = 0; i < count; i++) {
      const offset = buf.readUInt16BE(pointers + 2 * i);
      let at = start + offset;
      if (interior) {
        visit(buf.readUInt32BE(at));
        at += 4;
        if (type === 5) continue; // a table's interior cell holds only a rowid
      }
      const [size, afterSize] = varint(buf, at);
      at = afterSize;
      if (type === 13) [, at] = varint(buf, at); // the rowid
      // A payload that spills onto overflow pages is not read (no ballot row is that large).
      if (size <= pageSize - 35) cells.push({ offset, values: record(buf, at) });
    }
    if (interior) visit(buf.readUInt32BE(header + 8));
    pages.push({ page, cells });
  };
  visit(root);
  return pages;
}

/**
 * For every b-tree of `table` in the file at `path` (found through the schema table on page 1),
 * each page's cells in allocation order (first written first).
 */
export function cellsInWriteOrder(path: string, table: string): { tree: string; page: number; cells: Cell["values"][] }[] {
  const buf = readFileSync(path);
  const rawSize = buf.readUInt16BE(16);
  const pageSize = rawSize === 1 ? 65_536 : rawSize;
  const schema = walk(buf, pageSize, 1).flatMap((p) => p.cells.map((c) => c.values));
  // sqlite_schema rows: type, name, tbl_name, rootpage, sql
  const trees = schema.filter((v) => v[2] === table && (v[0] === "table" || v[0] === "index") && typeof v[3] === "number" && v[3] > 0);
  if (trees.length === 0) throw new Error(`no b-tree of table ${table} in ${path}`);
  return trees.flatMap((tree) =>
    walk(buf, pageSize, tree[3] as number)
      .filter((p) => p.cells.length > 0)
      .map((p) => ({ tree: String(tree[1]), page: p.page, cells: [...p.cells].sort((a, b) => b.offset - a.offset).map((c) => c.values) })),
  );
}

/**
 * Of every two rows on one page, the share whose write order (as the page shows it) is the order
 * they were cast in: about 0.5 when the page says nothing about it, 1 when it says it all.
 * `castRank` gives each row's place in the casting order (rows it does not know are left out).
 */
export function writeOrderAgreement(pages: readonly (string | null)[][], castRank: ReadonlyMap<string, number>): { pairs: number; agreement: number } {
  let pairs = 0;
  let agreeing = 0;
  for (const page of pages) {
    const ranks = page.filter((id): id is string => id !== null && castRank.has(id)).map((id) => castRank.get(id) as number);
    for (let i = 0; i < ranks.length; i++) {
      for (let j = i + 1; j < ranks.length; j++) {
        pairs++;
        if (ranks[i] < ranks[j]) agreeing++;
      }
    }
  }
  return { pairs, agreement: pairs === 0 ? 0 : agreeing / pairs };
}
