// Route declarations use the same coercing helpers as operation schemas.
import { z } from "zod";

export * from "../src/domain/inputs.ts";

/** The `:id` path parameter most routes take. */
export const idParam = z.object({ id: z.string() });
