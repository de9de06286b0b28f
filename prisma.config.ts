import { defineConfig } from "prisma/config";

// Prisma 7 does not load .env itself. Migrations are applied by src/db/migrate.ts (WASM engine) at start-up;
// the URL here only matters to the ordinary `prisma migrate` CLI on machines that can download its engine.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/ext" },
});
