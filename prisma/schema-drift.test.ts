// Fails when prisma/schema.prisma and prisma/migrations disagree. `prisma migrate diff` needs the
// native schema engine (not available offline), so: apply the migrations to a temp SQLite file,
// introspect it with PRAGMAs, and compare with the data model that Prisma's own schema parser
// (the prisma-schema wasm shipped inside the prisma CLI package, `get_dmmf`) reads from the schema.
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, PROJECT_ROOT } from "../server/config/paths.ts";
import { applyMigrations } from "../server/db/migrate.ts";
import { diffShapes, expectedShape, fkKey, loadGetDmmf, type Shape, type Table } from "./drift-shape.ts";

/** What the migrations actually built. */
function actualShape(db: Database.Database): Shape {
  const shape: Shape = {};
  // Ordinary tables only: virtual tables and their shadow tables are checked by virtualTables().
  const tables = db
    .prepare(
      "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations' ORDER BY name",
    )
    .all() as { name: string }[];
  for (const { name } of tables) {
    const t: Table = { columns: {}, primaryKey: [], indexes: {}, foreignKeys: {} };
    const info = db.pragma(`table_info("${name}")`) as {
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }[];
    for (const c of info) t.columns[c.name] = { type: c.type.toUpperCase(), notNull: c.notnull === 1, default: c.dflt_value };
    t.primaryKey = info
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    for (const idx of db.pragma(`index_list("${name}")`) as { name: string; unique: number; origin: string }[]) {
      if (idx.origin === "pk") continue;
      const cols = (db.pragma(`index_info("${idx.name}")`) as { seqno: number; name: string }[])
        .sort((a, b) => a.seqno - b.seqno)
        .map((c) => c.name);
      t.indexes[idx.name] = { unique: idx.unique === 1, columns: cols };
    }
    const fks = new Map<number, { table: string; from: string[]; to: string[]; on_delete: string; on_update: string }>();
    for (const fk of db.pragma(`foreign_key_list("${name}")`) as any[]) {
      const e = fks.get(fk.id) ?? { table: fk.table, from: [], to: [], on_delete: fk.on_delete, on_update: fk.on_update };
      e.from[fk.seq] = fk.from;
      e.to[fk.seq] = fk.to;
      fks.set(fk.id, e);
    }
    for (const fk of fks.values()) {
      t.foreignKeys[fkKey(fk.from, fk.table, fk.to)] = { onDelete: fk.on_delete, onUpdate: fk.on_update };
    }
    shape[name] = t;
  }
  return shape;
}

/**
 * Virtual tables, which Prisma cannot model (its migrations would never create one): each with the SQL
 * that made it, so a changed tokenizer or content table shows here. Shadow tables are left out.
 */
const VIRTUAL_TABLES: Record<string, string> = {
  search_fts: `CREATE VIRTUAL TABLE "search_fts" USING fts5("text", content = 'search_docs', content_rowid = 'id', tokenize = 'trigram')`,
};

function virtualTables(db: Database.Database): Record<string, string> {
  const rows = db
    .prepare(
      "SELECT t.name, m.sql FROM pragma_table_list t JOIN sqlite_master m ON m.name = t.name WHERE t.schema = 'main' AND t.type = 'virtual' ORDER BY t.name",
    )
    .all() as { name: string; sql: string }[];
  return Object.fromEntries(rows.map((r) => [r.name, r.sql]));
}

// ---------- The checks ----------

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "studyloop-drift-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const getDmmf = loadGetDmmf();
const schemaText = fs.readFileSync(path.join(PROJECT_ROOT, "prisma", "schema.prisma"), "utf8");

/** Applies a migrations folder to a fresh file and returns its shape. */
function migratedShape(migrationsDir: string, extraSql?: string): Shape {
  const file = fs.mkdtempSync(path.join(tmp, "db-")) + "/drift.db";
  applyMigrations(file, migrationsDir);
  const db = new Database(file);
  try {
    if (extraSql) db.exec(extraSql);
    return actualShape(db);
  } finally {
    db.close();
  }
}

function drift(schema: string, shape: Shape): string[] {
  const { shape: expected, unsupported } = expectedShape(getDmmf(schema));
  return [...unsupported, ...diffShapes(expected, shape)];
}

describe("prisma/schema.prisma and prisma/migrations", () => {
  it("agree", () => {
    // On failure the message lists every disagreement: fix schema.prisma or add a migration.
    expect(drift(schemaText, migratedShape(MIGRATIONS_DIR))).toEqual([]);
  });

  it("create exactly the virtual tables listed here (Prisma cannot describe them)", () => {
    const file = fs.mkdtempSync(path.join(tmp, "db-")) + "/virtual.db";
    applyMigrations(file, MIGRATIONS_DIR);
    const db = new Database(file);
    try {
      expect(virtualTables(db)).toEqual(VIRTUAL_TABLES);
      db.exec(`CREATE VIRTUAL TABLE "stray_fts" USING fts5(x)`);
      expect(Object.keys(virtualTables(db))).toEqual(["search_fts", "stray_fts"]);
      // Its shadow tables (stray_fts_data, _idx, ...) are not reported as tables missing from the schema.
      expect(drift(schemaText, actualShape(db))).toEqual([]);
    } finally {
      db.close();
    }
  });
});

describe("prisma/schema.prisma and prisma/postgresql/schema.prisma", () => {
  /** Everything after the datasource block: the models, with their comments. */
  const models = (text: string) => text.slice(text.indexOf("\n}\n", text.indexOf("datasource db {")) + 3);
  const pgText = fs.readFileSync(path.join(PROJECT_ROOT, "prisma", "postgresql", "schema.prisma"), "utf8");

  it("have the same models, word for word (change both together)", () => {
    expect(models(pgText)).toBe(models(schemaText));
    expect(models(schemaText)).toContain("model StudySession {");
  });

  it("differ only in the provider and the generated client's folder", () => {
    expect(getDmmf(pgText).models.map((m) => m.name)).toEqual(getDmmf(schemaText).models.map((m) => m.name));
    expect(pgText).toMatch(/provider = "postgresql"/);
    expect(pgText).toMatch(/output\s+= "..\/..\/server\/db\/generated-pg"/);
  });
});

describe("the drift check itself", () => {
  const migrated = migratedShape(MIGRATIONS_DIR);
  const edit = (from: string | RegExp, to: string) => {
    const next = schemaText.replace(from, to);
    expect(next).not.toBe(schemaText);
    return next;
  };

  it("sees every kind of schema change", () => {
    let s = schemaText;
    s = s.replace('@@map("topic_marks")', '@@map("topic_notes")');
    s = s.replace('endReason String?   @map("end_reason")', 'endReason String?   @map("stop_reason")');
    s = s.replace("  energy    Int\n", "  energy    Float\n");
    s = s.replace("  agent     String\n", "  agent     String?\n");
    s = s.replace('@default("study")', '@default("review")');
    s = s.replace('Int?      @unique @map("live_slot")', 'Int?      @map("live_slot")');
    s = s.replace("  @@index([topic])\n", "  @@index([topic, status])\n");
    s = s.replace("onDelete: SetNull", "onDelete: Cascade");
    s = s.replace("  summary       String?\n", "  summary       String?\n  mood          String?\n");
    expect(drift(s, migrated)).toEqual([
      "foreign key parked_items(session_id) -> study_sessions(id): ON DELETE CASCADE ON UPDATE CASCADE in schema.prisma, ON DELETE SET NULL ON UPDATE CASCADE in the migrations",
      "column study_sessions.agent: optional in schema.prisma, NOT NULL in the migrations",
      "column study_sessions.end_reason: in the migrations, missing from schema.prisma",
      "column study_sessions.energy: type REAL in schema.prisma, INTEGER in the migrations",
      "column study_sessions.mood: in schema.prisma, missing from the migrations",
      "column study_sessions.purpose: default 'review' in schema.prisma, 'study' in the migrations",
      "column study_sessions.stop_reason: in schema.prisma, missing from the migrations",
      "index study_sessions_live_slot_key on study_sessions: UNIQUE (live_slot) in the migrations, missing from schema.prisma",
      "index study_sessions_topic_idx on study_sessions: (topic) in the migrations, missing from schema.prisma",
      "index study_sessions_topic_status_idx on study_sessions: (topic, status) in schema.prisma, missing from the migrations",
      "table topic_marks: created by the migrations, not in schema.prisma",
      "table topic_notes: in schema.prisma, not created by the migrations",
    ]);
  });

  it("sees primary key, uniqueness and relation changes", () => {
    const s = edit("model TopicMark {\n  id        String       @id", "model TopicMark {\n  id        String       @unique").replace(
      '  @@map("topic_marks")',
      '  @@id([sessionId, topic])\n  @@map("topic_marks")',
    );
    expect(drift(s, migrated)).toEqual([
      "table topic_marks: primary key (session_id, topic) in schema.prisma, (id) in the migrations",
      "index topic_marks_id_key on topic_marks: UNIQUE (id) in schema.prisma, missing from the migrations",
    ]);
    const noRelation = edit("  session   StudySession @relation(fields: [sessionId], references: [id], onDelete: Cascade)\n", "").replace(
      "  topicMarks  TopicMark[]\n",
      "",
    );
    expect(drift(noRelation, migrated)).toEqual([
      "foreign key topic_marks(session_id) -> study_sessions(id): in the migrations, missing from schema.prisma",
    ]);
  });

  it("sees changes made by a migration", () => {
    const shape = migratedShape(
      MIGRATIONS_DIR,
      `DROP INDEX "parked_items_status_idx";
       CREATE UNIQUE INDEX "parked_items_status_idx" ON "parked_items"("status");
       ALTER TABLE "topic_marks" ADD COLUMN "weight" REAL NOT NULL DEFAULT 1;
       CREATE TABLE "stray" ("id" TEXT NOT NULL PRIMARY KEY);`,
    );
    expect(drift(schemaText, shape)).toEqual([
      "index parked_items_status_idx on parked_items: (status) in schema.prisma, UNIQUE (status) in the migrations",
      "table stray: created by the migrations, not in schema.prisma",
      "column topic_marks.weight: in the migrations, missing from schema.prisma",
    ]);
  });

  it("reports what it cannot check instead of passing silently", () => {
    const s = edit("  note      String?\n", "  note      String?\n  tags      Json?\n");
    expect(drift(s, migrated)).toContain("TopicMark.tags: type Json is not handled by this test");
  });

  it("rejects an invalid schema with Prisma's own error", () => {
    expect(() => getDmmf(schemaText.replace("energy    Int", "energy    Integer"))).toThrow(/Type "Integer" is neither a built-in type/);
  });
});
