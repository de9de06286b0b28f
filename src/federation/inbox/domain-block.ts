// Refusal of servers the instance rejects (runtime settings `mrf_simple.reject`, and `mrf_simple.accept` in
// allow-list mode), before anything else
// happens to their deliveries: no key fetch, no parsing, no job. The signing key's host and the
// activity's actor are both looked at (either may name the rejected server); the listeners check the
// actor again, for activities that arrive another way (relayed, fetched).
import type { Services } from "../../domain/context.ts";
import { hostOf, rejectedBy } from "../../domain/instance/rejected-domains.ts";
import { idOf, isObject } from "../remote/json.ts";

/** The key ids a request's signature headers name (draft-cavage `Signature`, RFC 9421 `Signature-Input`). */
function signatureKeyIds(headers: Headers): string[] {
  const found: string[] = [];
  for (const name of ["signature", "signature-input"]) {
    const value = headers.get(name);
    if (!value) continue;
    for (const m of value.matchAll(/keyid="([^"]+)"/gi)) found.push(m[1]);
  }
  return found;
}

/** Why an inbox POST must be refused (403), or null. */
export function refusedInboxPost(services: Pick<Services, "config" | "settings">, body: Uint8Array, headers: Headers): string | null {
  const hosts = signatureKeyIds(headers).map((k) => hostOf(k));
  try {
    const json: unknown = JSON.parse(Buffer.from(body).toString("utf8"));
    if (isObject(json)) hosts.push(hostOf(idOf(json.actor)), hostOf(idOf(json)));
  } catch {
    // not JSON: Fedify answers 400
  }
  for (const host of hosts) {
    const rule = rejectedBy(services, host);
    if (rule) return `Activities from ${host} are not accepted here${rule.reason ? `: ${rule.reason}` : ""}`;
  }
  return null;
}
