// The one place where entities get their `<ns>` (namespace) and `<family>` objects. The two words are
// configuration (API_NAMESPACE, API_FAMILY); when an operator sets both to the same word (the family's
// earlier servers have only a `pleroma` object), the two objects become one holding the fields of both,
// so neither overwrites the other.
import type { Settings } from "../../src/config/env.ts";

type Fields = Record<string, unknown>;

/** `{[namespace]: nsFields, [family]: familyFields}`, merged into one object when the words are equal (namespace fields win a clash). */
export function extensionObjects(settings: Pick<Settings, "namespace" | "family">, nsFields: Fields | null, familyFields: Fields | null): Record<string, Fields> {
  const out: Record<string, Fields> = {};
  if (familyFields) out[settings.family] = familyFields;
  if (nsFields) out[settings.namespace] = { ...out[settings.namespace], ...nsFields };
  return out;
}
