// Filters v1 and v2 with their keywords and statuses (views/filter.ts).
import { z } from "zod";
import { timestamp, view } from "./view.ts";

export const FilterKeywordSchema = view("FilterKeyword", () => z.object({ id: z.string(), keyword: z.string(), whole_word: z.boolean() }));
export const FilterStatusSchema = view("FilterStatus", () => z.object({ id: z.string(), status_id: z.string() }));

export const FilterV2Schema = view("Filter", (w) =>
  z.object({
    id: z.string(),
    title: z.string(),
    context: z.array(z.string()),
    expires_at: timestamp().nullable(),
    filter_action: z.string(),
    keywords: z.array(FilterKeywordSchema(w)),
    statuses: z.array(FilterStatusSchema(w)),
  }),
);

export const FilterV1Schema = view("FilterV1", () =>
  z.object({ id: z.string(), phrase: z.string(), context: z.array(z.string()), whole_word: z.boolean(), expires_at: timestamp().nullable(), irreversible: z.boolean() }),
);
