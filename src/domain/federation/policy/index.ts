// The content policies (the family's MRF, configured through the admin config API and read from the
// runtime settings at each use, so a change applies at once in every process): which run, and their
// application to what comes in. Servers refused as a whole (`mrf_simple.reject` / `accept`) are handled
// by src/domain/instance/rejected-domains.ts, before anything is parsed.
import type { RuntimeConfig } from "../../../config/runtime.ts";
import { POLICY_MODULES } from "../../../config/registry.ts";
import type { RemoteAccountData } from "../../accounts/remote.ops.ts";
import { hostRule } from "../../instance/rejected-domains.ts";
import type { RemoteStatusData } from "../../statuses/remote.ops.ts";
import { hashtagPolicy, keywordPolicy, objectAgePolicy, simplePolicy, type Filtered, type PolicySubject } from "./status-policies.ts";

export type { Filtered } from "./status-policies.ts";

/** Policies that always run here: SimplePolicy (its reject list predates the policy list) and HashtagPolicy (as in the family). */
const ALWAYS = ["SimplePolicy", "HashtagPolicy"];

/** The policies in force, by their short names (what NodeInfo lists as `mrf_policies`). */
export function activePolicies(config: RuntimeConfig): string[] {
  const listed = config.get("mrf", "policies").filter((p) => (POLICY_MODULES as readonly string[]).includes(p));
  return [...new Set([...listed, ...ALWAYS])];
}

interface StatusOrigin {
  /** the author's server */
  host: string;
  /** it arrives now in a Create (ObjectAgePolicy looks only at those, so fetched old threads stay readable) */
  created: boolean;
  now: Date;
}

/** A remote status through every policy in force: the status to store, or why it is refused. */
export function filterRemoteStatus(config: RuntimeConfig, data: RemoteStatusData, origin: StatusOrigin): Filtered<RemoteStatusData> {
  const policies = activePolicies(config);
  let result: Filtered<RemoteStatusData> = { ok: true, value: data };
  const steps: ((d: RemoteStatusData) => Filtered<RemoteStatusData>)[] = [];
  if (policies.includes("ObjectAgePolicy") && origin.created) steps.push((d) => objectAgePolicy(config, origin.now, d));
  if (policies.includes("SimplePolicy")) steps.push((d) => simplePolicy(config, origin.host, d));
  if (policies.includes("KeywordPolicy")) steps.push((d) => keywordPolicy(config, d));
  if (policies.includes("HashtagPolicy")) steps.push((d) => hashtagPolicy(config, d));
  for (const step of steps) {
    if (!result.ok) break;
    result = step(result.value);
  }
  return result;
}

/**
 * A post of this server's users through the policies the family also runs on local activities
 * (KeywordPolicy and HashtagPolicy; SimplePolicy and ObjectAgePolicy concern other servers).
 */
export function filterLocalStatus<D extends PolicySubject>(config: RuntimeConfig, data: D): Filtered<D> {
  const policies = activePolicies(config);
  let result: Filtered<D> = { ok: true, value: data };
  if (policies.includes("KeywordPolicy")) result = keywordPolicy(config, result.value);
  if (result.ok && policies.includes("HashtagPolicy")) result = hashtagPolicy(config, result.value);
  return result;
}

/** A remote account's profile through SimplePolicy's `avatar_removal` and `banner_removal`. */
export function filterRemoteAccount(config: RuntimeConfig, data: RemoteAccountData): RemoteAccountData {
  const rules = config.group("mrf_simple");
  let out = data;
  if (data.avatar && hostRule(rules.avatar_removal, data.domain)) out = { ...out, avatar: null };
  if (data.header && hostRule(rules.banner_removal, data.domain)) out = { ...out, header: null };
  return out;
}

/**
 * Whether an activity of the actor's server is dropped whole by SimplePolicy: `reject_deletes` for
 * Delete, `report_removal` for Flag. The reason, or null.
 */
export function refusedActivity(config: RuntimeConfig, types: readonly string[], actorHost: string | null): string | null {
  const rules = config.group("mrf_simple");
  if (types.includes("Delete") && hostRule(rules.reject_deletes, actorHost)) return `[SimplePolicy] deletes from ${actorHost} are rejected`;
  if (types.includes("Flag") && hostRule(rules.report_removal, actorHost)) return `[SimplePolicy] reports from ${actorHost} are rejected`;
  return null;
}
