// Route declarations use the same coercing helpers as operation schemas.
export * from "../src/domain/inputs.ts";
