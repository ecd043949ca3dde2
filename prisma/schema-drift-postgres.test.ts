// Fails when prisma/postgresql/schema.prisma and prisma/postgresql/migrations disagree: the migrations
// are applied to a new database on a real PostgreSQL (started by the test), introspected through
// pg_catalog, and compared with the data model Prisma's own parser reads from the schema, as
// schema-drift.test.ts does for SQLite.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { PG_MIGRATIONS_DIR, PROJECT_ROOT } from "../server/config/paths.ts";
import { applyPostgresMigrations } from "../server/db/migrate-postgres.ts";
import { postgresAvailable, testPostgresUrl } from "../server/db/test-postgres.ts";
import { diffShapes, expectedShape, fkKey, loadGetDmmf, type Shape, type Table } from "./drift-shape.ts";

const ACTIONS: Record<string, string> = { a: "NO ACTION", r: "RESTRICT", c: "CASCADE", n: "SET NULL", d: "SET DEFAULT" };

/**
 * Indexes the PostgreSQL migrations add that Prisma cannot describe (e.g. a trigram index for search),
 * each with its definition as pg_get_indexdef() writes it; they are checked here instead.
 */
export const PG_EXTRA_INDEXES: Record<string, string> = {
  // The search index (prisma/postgresql/migrations/20261203010000_history_and_search).
  search_docs_text_trgm_idx: "CREATE INDEX search_docs_text_trgm_idx ON public.search_docs USING gin (text gin_trgm_ops)",
};

/** What the migrations built in the public schema, in the shape drift-shape.ts compares. */
async function actualShape(client: pg.Client): Promise<{ shape: Shape; extraIndexes: Record<string, string> }> {
  const shape: Shape = {};
  const extraIndexes: Record<string, string> = {};
  const tables = await client.query<{ oid: number; name: string }>(
    `SELECT c.oid, c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> '_prisma_migrations' ORDER BY c.relname`,
  );
  for (const { oid, name } of tables.rows) {
    const t: Table = { columns: {}, primaryKey: [], indexes: {}, foreignKeys: {} };
    const columns = await client.query<{ name: string; type: string; not_null: boolean; default: string | null }>(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
              pg_get_expr(d.adbin, d.adrelid) AS default
       FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
       WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      [oid],
    );
    for (const c of columns.rows) t.columns[c.name] = { type: c.type, notNull: c.not_null, default: c.default };
    const constraints = await client.query<{
      name: string;
      type: string;
      columns: string[];
      ref_table: string | null;
      ref_columns: string[] | null;
      on_delete: string;
      on_update: string;
    }>(
      `SELECT con.conname AS name, con.contype AS type,
              ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(n, i)
                    JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.i)::text[] AS columns,
              ref.relname AS ref_table,
              ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(n, i)
                    JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n ORDER BY k.i)::text[] AS ref_columns,
              con.confdeltype AS on_delete, con.confupdtype AS on_update
       FROM pg_constraint con LEFT JOIN pg_class ref ON ref.oid = con.confrelid
       WHERE con.conrelid = $1 AND con.contype IN ('p', 'f', 'u') ORDER BY con.conname`,
      [oid],
    );
    for (const c of constraints.rows) {
      if (c.type === "p") t.primaryKey = c.columns;
      // Prisma makes unique indexes, never UNIQUE constraints: one shows as an index named as the constraint.
      else if (c.type === "u") t.indexes[c.name] = { unique: true, columns: c.columns };
      else
        t.foreignKeys[fkKey(c.columns, c.ref_table!, c.ref_columns!)] = {
          onDelete: ACTIONS[c.on_delete]!,
          onUpdate: ACTIONS[c.on_update]!,
        };
    }
    const indexes = await client.query<{ name: string; unique: boolean; columns: (string | null)[]; definition: string; plain: boolean }>(
      `SELECT ic.relname AS name, i.indisunique AS unique, pg_get_indexdef(i.indexrelid) AS definition,
              ARRAY(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY k(n, o)
                    LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS columns,
              (i.indpred IS NULL AND i.indexprs IS NULL AND am.amname = 'btree') AS plain
       FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_am am ON am.oid = ic.relam
       WHERE i.indrelid = $1 AND NOT i.indisprimary
         AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = i.indexrelid)
       ORDER BY ic.relname`,
      [oid],
    );
    for (const idx of indexes.rows) {
      // Partial, expression or non-btree indexes are not Prisma's: listed in PG_EXTRA_INDEXES instead.
      if (!idx.plain || idx.columns.some((c) => c === null)) extraIndexes[idx.name] = idx.definition;
      else t.indexes[idx.name] = { unique: idx.unique, columns: idx.columns as string[] };
    }
    shape[name] = t;
  }
  return { shape, extraIndexes };
}

const getDmmf = loadGetDmmf();
const schemaText = fs.readFileSync(path.join(PROJECT_ROOT, "prisma", "postgresql", "schema.prisma"), "utf8");

function drift(schema: string, shape: Shape): string[] {
  const { shape: expected, unsupported } = expectedShape(getDmmf(schema), "postgresql");
  return [...unsupported, ...diffShapes(expected, shape)];
}

/** Applies the PostgreSQL migrations to a new database, runs `extraSql`, and introspects it. */
async function migrated(extraSql?: string) {
  const url = await testPostgresUrl();
  await applyPostgresMigrations(url, PG_MIGRATIONS_DIR);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (extraSql) await client.query(extraSql);
    return await actualShape(client);
  } finally {
    await client.end();
  }
}

describe.runIf(postgresAvailable())("prisma/postgresql/schema.prisma and its migrations (real PostgreSQL)", () => {
  it("agree", async () => {
    const { shape, extraIndexes } = await migrated();
    // On failure the message lists every disagreement: fix the schema or add a migration.
    expect(drift(schemaText, shape)).toEqual([]);
    expect(extraIndexes).toEqual(PG_EXTRA_INDEXES);
  });

  it("keep the live slot a plain unique index: many ended rows hold NULL, one live row holds 1", async () => {
    const { shape } = await migrated();
    expect(shape.study_sessions!.indexes.study_sessions_live_slot_key).toEqual({ unique: true, columns: ["live_slot"] });
    const url = await testPostgresUrl();
    await applyPostgresMigrations(url, PG_MIGRATIONS_DIR);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const insert = (id: string, slot: number | null) =>
        client.query(`INSERT INTO study_sessions (id, topic, energy, agent, transport, live_slot) VALUES ($1, 't', 3, 'a', 'pty', $2)`, [
          id,
          slot,
        ]);
      await insert("ended-1", null);
      await insert("ended-2", null);
      await insert("live", 1);
      await expect(insert("second-live", 1)).rejects.toMatchObject({ code: "23505", constraint: "study_sessions_live_slot_key" });
    } finally {
      await client.end();
    }
  });

  it("the check sees a changed schema and a changed database", async () => {
    const edited = schemaText
      .replace("  energy    Int\n", "  energy    Float\n")
      .replace('@default("study")', '@default("review")')
      .replace("  @@index([topic])\n", "  @@index([topic, status])\n");
    const { shape, extraIndexes } = await migrated(
      `ALTER TABLE "topic_marks" ADD COLUMN "weight" DOUBLE PRECISION NOT NULL DEFAULT 1;
       ALTER TABLE "cards" DROP CONSTRAINT "cards_session_id_fkey";
       ALTER TABLE "cards" ADD CONSTRAINT "cards_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "study_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
       CREATE INDEX "stray_partial" ON "parked_items"("status") WHERE "status" = 'pending';`,
    );
    expect(drift(edited, shape)).toEqual([
      "foreign key cards(session_id) -> study_sessions(id): ON DELETE SET NULL ON UPDATE CASCADE in schema.prisma, ON DELETE CASCADE ON UPDATE CASCADE in the migrations",
      "column study_sessions.energy: type double precision in schema.prisma, integer in the migrations",
      "column study_sessions.purpose: default 'review'::text in schema.prisma, 'study'::text in the migrations",
      "index study_sessions_topic_idx on study_sessions: (topic) in the migrations, missing from schema.prisma",
      "index study_sessions_topic_status_idx on study_sessions: (topic, status) in schema.prisma, missing from the migrations",
      "column topic_marks.weight: in the migrations, missing from schema.prisma",
    ]);
    expect(extraIndexes).toEqual({
      ...PG_EXTRA_INDEXES,
      stray_partial: `CREATE INDEX stray_partial ON public.parked_items USING btree (status) WHERE (status = 'pending'::text)`,
    });
  });
});
