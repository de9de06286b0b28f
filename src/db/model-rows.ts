// Rows of Prisma models carried as JSON inside one raw statement. Prisma loads each relation of an
// `include` with a statement of its own; a hand-written statement can bring the related rows along
// as JSON instead. `modelJson` writes the SQL that turns a table alias into a JSON object keyed by
// the model's field names; `decodeModel` turns that object back into what Prisma itself returns
// (JSON has no dates or big integers). Both read the client's own data model, so a new column
// needs no change here.
import { Prisma } from "../generated/prisma/client.ts";
import type { Db } from "./client.ts";
import { sqlFor } from "./sql.ts";

type ModelName = Prisma.ModelName;
/** the row type Prisma returns for a model */
export type ModelRow<M extends ModelName> = Prisma.TypeMap["model"][M]["payload"]["scalars"];

interface Field {
  name: string;
  kind: string;
  type: string;
  dbName?: string | null;
}
interface Model {
  fields: Field[];
  dbName?: string | null;
}

const models = new Map<string, { table: string; fields: Field[] }>();

function modelOf(db: Db, name: ModelName) {
  let model = models.get(name);
  if (!model) {
    // the generated client keeps its data model here (its query compiler reads it too)
    const found = (db as unknown as { _runtimeDataModel?: { models: Record<string, Model> } })._runtimeDataModel?.models[name];
    if (!found) throw new Error(`the Prisma client carries no data model for ${name}`);
    model = { table: found.dbName ?? name, fields: found.fields.filter((f) => f.kind === "scalar" || f.kind === "enum") };
    models.set(name, model);
  }
  return model;
}

/** `alias`'s row as a JSON object keyed by field name, e.g. `json_agg(${modelJson(db, "Account", "a")})`. */
export function modelJson(db: Db, model: ModelName, alias: string): Prisma.Sql {
  // the same few texts on every page statement: written once (the data model does not change while running)
  const key = `${model} ${alias}`;
  let sql = modelSql.get(key);
  if (!sql) {
    const list = modelOf(db, model).fields.map((f) => `${alias}."${f.dbName ?? f.name}" AS "${f.name}"`);
    modelSql.set(key, (sql = Prisma.raw(`(SELECT to_json(_row) FROM (SELECT ${list.join(", ")}) AS _row)`)));
  }
  return sql;
}
const modelSql = new Map<string, Prisma.Sql>();

/**
 * A JSON array (null when empty) of the rows of `model` whose `id` the one-column query `ids`
 * returns, found one primary-key lookup at a time: a join would let the planner scan the whole
 * table when it overestimates the ids (and `LIMIT 1` keeps the lookup from being flattened into one).
 */
export function modelJsonById(db: Db, model: ModelName, ids: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT json_agg(${modelJson(db, model, "_found")}) FROM (${ids}) AS _ids(id)
    CROSS JOIN LATERAL (SELECT * FROM ${Prisma.raw(`"${modelOf(db, model).table}"`)} WHERE id = _ids.id LIMIT 1) AS _found)`;
}

/** A row that `modelJson` produced, with the types Prisma gives its fields. */
export function decodeModel<M extends ModelName>(db: Db, model: M, json: Record<string, unknown>): ModelRow<M> {
  const row: Record<string, unknown> = {};
  for (const f of modelOf(db, model).fields) row[f.name] = decodeValue(f.type, json[f.name] ?? null);
  return row as ModelRow<M>;
}

function decodeValue(type: string, value: unknown): unknown {
  if (value === null) return null;
  if (Array.isArray(value)) return type === "Json" ? value : value.map((v) => decodeValue(type, v));
  if (type === "DateTime" && typeof value === "string") return decodeDate(value);
  if (type === "BigInt" && (typeof value === "number" || typeof value === "string")) return BigInt(value);
  return value;
}

/** `timestamp` columns come as UTC without a zone ("2026-01-02T03:04:05.678"), `date` ones as a bare day. */
function decodeDate(value: string): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T00:00:00Z`);
  return new Date(/(Z|[+-]\d\d(:?\d\d)?)$/.test(value) ? value : `${value}Z`);
}

// Single-row statements on the hottest paths (each inbox activity: the actor's account, the status it
// creates) through the bare driver (src/db/sql.ts): Prisma's model API costs about 0.2 ms of CPU more
// per statement than the statement itself (docs/performance.md, "Federation"). The row comes back in
// the shape Prisma returns.

/** The row of `model` whose unique `field` equals `value`, or null (one statement). */
export async function findModelRow<M extends ModelName>(db: Db, model: M, field: string, value: unknown): Promise<ModelRow<M> | null> {
  const { table, fields } = modelOf(db, model);
  const column = fields.find((f) => f.name === field);
  if (!column) throw new Error(`${model} has no field ${field}`);
  const [found] = await sqlFor(db).query<{ row: Record<string, unknown> }>(
    `SELECT ${modelJson(db, model, "_t").sql} AS row FROM "${table}" AS _t WHERE _t."${column.dbName ?? column.name}" = $1 LIMIT 1`,
    [value],
  );
  return found ? decodeModel(db, model, found.row) : null;
}

/**
 * Inserts one row of `model` (scalar fields by name; database defaults for the others) and returns it
 * as Prisma would. Unlike Prisma, no client-side defaults: `@updatedAt` and the like are the caller's.
 */
export async function insertModelRow<M extends ModelName>(db: Db, model: M, data: Partial<Record<keyof ModelRow<M> & string, unknown>>): Promise<ModelRow<M>> {
  const { table, fields } = modelOf(db, model);
  const columns: string[] = [];
  const values: string[] = [];
  const params: unknown[] = [];
  for (const f of fields) {
    const value = (data as Record<string, unknown>)[f.name];
    if (value === undefined) continue;
    params.push(encodeValue(f, value));
    columns.push(`"${f.dbName ?? f.name}"`);
    values.push(`$${params.length}${castOf(f, value)}`);
  }
  const [inserted] = await sqlFor(db).query<{ row: Record<string, unknown> }>(
    `INSERT INTO "${table}" AS _t (${columns.join(", ")}) VALUES (${values.join(", ")}) RETURNING ${modelJson(db, model, "_t").sql} AS row`,
    params,
  );
  return decodeModel(db, model, inserted.row);
}

/** A unique index refused the row: P2002 from Prisma's model API, 23505 from the driver (P2010 around it from Prisma's raw calls). */
export function isUniqueViolation(error: unknown): boolean {
  const { code, meta } = (error ?? {}) as { code?: string; meta?: { driverAdapterError?: { cause?: { originalCode?: string } } } };
  return code === "P2002" || code === "23505" || (code === "P2010" && meta?.driverAdapterError?.cause?.originalCode === "23505");
}

/** Parameters go as text where the driver paths differ (dates, JSON), with a cast to the column's type. */
function encodeValue(f: Field, value: unknown): unknown {
  if (value === null) return null;
  if (f.type === "Json") return JSON.stringify(value);
  if (value instanceof Date) return value.toISOString();
  return value;
}

const SCALAR_CASTS: Record<string, string> = { DateTime: "timestamp(3)", Json: "jsonb", Int: "int", BigInt: "bigint", Float: "double precision", Boolean: "boolean", String: "text" };

function castOf(f: Field, value: unknown): string {
  const type = f.kind === "enum" ? `"${f.type}"` : SCALAR_CASTS[f.type];
  if (!type) return "";
  // a timestamp written from an ISO string keeps the UTC wall time (Prisma's convention for timestamp(3))
  return Array.isArray(value) && f.type !== "Json" ? `::${type}[]` : `::${type}`;
}
