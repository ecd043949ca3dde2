// Test support for the drift tests (schema-drift.test.ts for SQLite, schema-drift-postgres.test.ts):
// Prisma's own schema parser (the prisma-schema wasm inside the prisma CLI package, `get_dmmf`), the
// database a schema describes as Prisma's migrations would build it on either provider, and the
// comparison with what the migrations actually built.
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../server/config/paths.ts";

// ---------- Prisma's schema parser (wasm-bindgen module without its JS glue) ----------

export interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "object" | "enum" | "unsupported";
  type: string;
  isList: boolean;
  isRequired: boolean;
  isId: boolean;
  nativeType?: unknown;
  default?: unknown;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}
export interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
  primaryKey: { fields: string[] } | null;
}
export interface DmmfIndex {
  model: string;
  type: "id" | "unique" | "normal" | "fulltext";
  dbName?: string;
  fields: { name: string }[];
}
export interface Datamodel {
  models: DmmfModel[];
  indexes: DmmfIndex[];
}

const WASM = path.join(PROJECT_ROOT, "node_modules", "prisma", "build", "prisma_schema_build_bg.wasm");

/** Calls get_dmmf in the wasm the prisma CLI uses; import names carry a build hash, so match prefixes. */
export function loadGetDmmf(): (schema: string) => Datamodel {
  const wasm = new WebAssembly.Module(fs.readFileSync(WASM));
  let ex: any;
  const bytes = () => new Uint8Array(ex.memory.buffer);
  const text = (ptr: number, len: number) => new TextDecoder().decode(bytes().subarray(ptr >>> 0, (ptr >>> 0) + len));
  const imports: Record<string, Function> = {};
  for (const { name } of WebAssembly.Module.imports(wasm)) {
    if (name.startsWith("__wbg_Error_")) imports[name] = (p: number, l: number) => new Error(text(p, l));
    else if (name.startsWith("__wbg___wbindgen_throw_"))
      imports[name] = (p: number, l: number) => {
        throw new Error(text(p, l));
      };
    else if (name.startsWith("__wbg_set_message_"))
      imports[name] = () => {}; // panic hook message
    else if (name === "__wbindgen_init_externref_table") {
      imports[name] = () => {
        const table = ex.__wbindgen_externrefs;
        const at = table.grow(4);
        [undefined, null, true, false].forEach((v, i) => table.set(at + i, v));
      };
    } else throw new Error(`prisma-schema wasm wants an unknown import ${name}: update loadGetDmmf`);
  }
  ex = new WebAssembly.Instance(wasm, { __wbindgen_placeholder__: imports as any }).exports;
  ex.__wbindgen_start();
  return (schema) => {
    const input = new TextEncoder().encode(JSON.stringify({ prismaSchema: schema, noColor: true }));
    const ptr = ex.__wbindgen_malloc(input.length, 1) >>> 0;
    bytes().set(input, ptr);
    const [outPtr, outLen, errRef, isErr] = ex.get_dmmf(ptr, input.length);
    if (isErr) {
      const err: Error = ex.__wbindgen_externrefs.get(errRef);
      ex.__externref_table_dealloc(errRef);
      // The message is JSON ({error_code, message}); surface Prisma's readable validation text.
      let message = err.message;
      try {
        message = JSON.parse(message).message ?? message;
      } catch {}
      throw new Error(`prisma/schema.prisma does not validate:\n${message}`);
    }
    try {
      return JSON.parse(text(outPtr, outLen)).datamodel;
    } finally {
      ex.__wbindgen_free(outPtr, outLen, 1);
    }
  };
}

// ---------- One shape for both sides ----------

export interface Column {
  type: string;
  notNull: boolean;
  default: string | null;
}
export interface Index {
  unique: boolean;
  columns: string[];
}
export interface ForeignKey {
  onDelete: string;
  onUpdate: string;
}
export interface Table {
  columns: Record<string, Column>;
  primaryKey: string[];
  indexes: Record<string, Index>; // by index name
  foreignKeys: Record<string, ForeignKey>; // by "cols -> table(cols)"
}
export type Shape = Record<string, Table>;

export type Dialect = "sqlite" | "postgresql";

// Prisma's column types per provider (PostgreSQL's as format_type() writes them) and referential actions.
const SQL_TYPES: Record<Dialect, Record<string, string>> = {
  sqlite: {
    String: "TEXT",
    Int: "INTEGER",
    BigInt: "BIGINT",
    Float: "REAL",
    Decimal: "DECIMAL",
    Boolean: "BOOLEAN",
    DateTime: "DATETIME",
    Bytes: "BLOB",
  },
  postgresql: {
    String: "text",
    Int: "integer",
    BigInt: "bigint",
    Float: "double precision",
    Decimal: "numeric(65,30)",
    Boolean: "boolean",
    DateTime: "timestamp(3) without time zone",
    Bytes: "bytea",
  },
};
export const ACTIONS: Record<string, string> = {
  Cascade: "CASCADE",
  SetNull: "SET NULL",
  Restrict: "RESTRICT",
  NoAction: "NO ACTION",
  SetDefault: "SET DEFAULT",
};

export const fkKey = (cols: string[], table: string, refCols: string[]) => `(${cols.join(", ")}) -> ${table}(${refCols.join(", ")})`;

/** The database the schema describes, as Prisma's migrations would build it on `dialect`. */
export function expectedShape(dm: Datamodel, dialect: Dialect = "sqlite"): { shape: Shape; unsupported: string[] } {
  const pg = dialect === "postgresql";
  const unsupported: string[] = [];
  const table = (m: DmmfModel) => m.dbName ?? m.name;
  const modelByName = new Map(dm.models.map((m) => [m.name, m]));
  const column = (m: DmmfModel, field: string) => {
    const f = m.fields.find((x) => x.name === field)!;
    return f.dbName ?? f.name;
  };
  const sqlDefault = (m: DmmfModel, f: DmmfField): string | null => {
    const d = f.default;
    if (d === undefined || d === null) return null;
    // PostgreSQL shows a text literal with its cast, as pg_get_expr() writes it.
    if (typeof d === "string") return `'${d.replaceAll("'", "''")}'${pg ? "::text" : ""}`;
    if (typeof d === "number" || typeof d === "boolean") return String(d);
    const fn = d as { name: string; args: unknown[] };
    if (fn.name === "now") return "CURRENT_TIMESTAMP";
    if (["uuid", "cuid", "nanoid", "ulid"].includes(fn.name)) return null; // generated by the client
    // SQLite: INTEGER PRIMARY KEY AUTOINCREMENT, the rowid, no default; PostgreSQL: SERIAL, a sequence.
    if (fn.name === "autoincrement") return pg ? `nextval('${table(m)}_${f.dbName ?? f.name}_seq'::regclass)` : null;
    if (fn.name === "dbgenerated" && typeof fn.args[0] === "string") return fn.args[0];
    unsupported.push(`${m.name}.${f.name}: default ${JSON.stringify(d)} is not handled by this test`);
    return null;
  };

  const shape: Shape = {};
  for (const m of dm.models) {
    const t: Table = { columns: {}, primaryKey: [], indexes: {}, foreignKeys: {} };
    for (const f of m.fields) {
      if (f.kind === "object") {
        if (!f.relationFromFields?.length) continue; // the other side of a relation: no column
        const target = modelByName.get(f.type)!;
        const required = f.relationFromFields.some((n) => m.fields.find((x) => x.name === n)!.isRequired);
        t.foreignKeys[
          fkKey(
            f.relationFromFields.map((n) => column(m, n)),
            table(target),
            f.relationToFields!.map((n) => column(target, n)),
          )
        ] = {
          onDelete: ACTIONS[f.relationOnDelete ?? (required ? "Restrict" : "SetNull")]!,
          onUpdate: ACTIONS[f.relationOnUpdate ?? "Cascade"]!,
        };
        continue;
      }
      const type = f.kind === "enum" ? SQL_TYPES[dialect].String : SQL_TYPES[dialect][f.type];
      if (!type || f.isList || f.nativeType || f.kind === "unsupported") {
        unsupported.push(`${m.name}.${f.name}: type ${f.type}${f.isList ? "[]" : ""} is not handled by this test`);
      }
      t.columns[f.dbName ?? f.name] = { type: type ?? f.type, notNull: f.isRequired, default: sqlDefault(m, f) };
    }
    t.primaryKey = (m.primaryKey?.fields ?? m.fields.filter((f) => f.isId).map((f) => f.name)).map((n) => column(m, n));
    shape[table(m)] = t;
  }
  for (const idx of dm.indexes) {
    if (idx.type === "id") continue;
    const m = modelByName.get(idx.model)!;
    if (idx.type === "fulltext") {
      unsupported.push(`${m.name}: fulltext index is not handled by this test`);
      continue;
    }
    const columns = idx.fields.map((f) => column(m, f.name));
    // Prisma's default names: {table}_{columns}_key for unique, _idx otherwise.
    const name = idx.dbName ?? `${table(m)}_${columns.join("_")}_${idx.type === "unique" ? "key" : "idx"}`;
    shape[table(m)]!.indexes[name] = { unique: idx.type === "unique", columns };
  }
  return { shape, unsupported };
}

/** Every disagreement, one line each; empty when schema and migrations match. */
export function diffShapes(schema: Shape, db: Shape): string[] {
  const out: string[] = [];
  const keys = (a: object, b: object) => [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const show = (v: unknown) => JSON.stringify(v);
  for (const name of keys(schema, db)) {
    const s = schema[name];
    const d = db[name];
    if (!s || !d) {
      out.push(
        `table ${name}: ${s ? "in schema.prisma, not created by the migrations" : "created by the migrations, not in schema.prisma"}`,
      );
      continue;
    }
    for (const col of keys(s.columns, d.columns)) {
      const sc = s.columns[col];
      const dc = d.columns[col];
      if (!sc || !dc) {
        out.push(
          `column ${name}.${col}: ${sc ? "in schema.prisma, missing from the migrations" : "in the migrations, missing from schema.prisma"}`,
        );
        continue;
      }
      if (sc.type !== dc.type) out.push(`column ${name}.${col}: type ${sc.type} in schema.prisma, ${dc.type} in the migrations`);
      if (sc.notNull !== dc.notNull) {
        out.push(
          `column ${name}.${col}: ${sc.notNull ? "required" : "optional"} in schema.prisma, ${dc.notNull ? "NOT NULL" : "nullable"} in the migrations`,
        );
      }
      if (sc.default !== dc.default)
        out.push(`column ${name}.${col}: default ${sc.default ?? "none"} in schema.prisma, ${dc.default ?? "none"} in the migrations`);
    }
    if (show(s.primaryKey) !== show(d.primaryKey)) {
      out.push(`table ${name}: primary key (${s.primaryKey.join(", ")}) in schema.prisma, (${d.primaryKey.join(", ")}) in the migrations`);
    }
    for (const idx of keys(s.indexes, d.indexes)) {
      const si = s.indexes[idx];
      const di = d.indexes[idx];
      const describe = (i: Index) => `${i.unique ? "UNIQUE " : ""}(${i.columns.join(", ")})`;
      if (!si || !di)
        out.push(
          `index ${idx} on ${name}: ${si ? `${describe(si)} in schema.prisma, missing from the migrations` : `${describe(di!)} in the migrations, missing from schema.prisma`}`,
        );
      else if (show(si) !== show(di))
        out.push(`index ${idx} on ${name}: ${describe(si)} in schema.prisma, ${describe(di)} in the migrations`);
    }
    for (const fk of keys(s.foreignKeys, d.foreignKeys)) {
      const sf = s.foreignKeys[fk];
      const df = d.foreignKeys[fk];
      const describe = (f: ForeignKey) => `ON DELETE ${f.onDelete} ON UPDATE ${f.onUpdate}`;
      if (!sf || !df)
        out.push(
          `foreign key ${name}${fk}: ${sf ? "in schema.prisma, missing from the migrations" : "in the migrations, missing from schema.prisma"}`,
        );
      else if (show(sf) !== show(df))
        out.push(`foreign key ${name}${fk}: ${describe(sf)} in schema.prisma, ${describe(df)} in the migrations`);
    }
  }
  return out;
}
