// Reference admin API: a warning preset.
import type { WarningPreset } from "../../src/generated/prisma/client.ts";

export const renderWarningPreset = (p: WarningPreset) => ({ id: p.id, title: p.title, text: p.text, created_at: p.createdAt.toISOString(), updated_at: p.updatedAt.toISOString() });
