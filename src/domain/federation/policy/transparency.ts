// What the instance publishes about its content policies (NodeInfo `metadata.federation` and the
// instance API's `pleroma.metadata.federation`), in the family's shapes: `mrf_policies`, each policy's
// settings (`mrf_simple` hosts per action with `mrf_simple_info` reasons, `mrf_keyword`, `mrf_hashtag`,
// `mrf_object_age`), and `exclusions` when hosts are left out (`mrf.transparency_exclusions`).
import type { HostReason, RuntimeConfig } from "../../../config/runtime.ts";
import { hostRule } from "../../instance/rejected-domains.ts";
import { activePolicies } from "./index.ts";

export function policyTransparency(config: RuntimeConfig) {
  const mrf = config.group("mrf");
  if (!mrf.transparency) return { exclusions: false };
  const excluded = (rule: HostReason) => hostRule(mrf.transparency_exclusions, rule.host.replace(/^\*\./, "")) !== null;
  const policies = activePolicies(config);
  const simple = config.group("mrf_simple");
  const mrfSimple: Record<string, string[]> = {};
  const mrfSimpleInfo: Record<string, Record<string, { reason: string }>> = {};
  for (const [action, rules] of Object.entries(simple)) {
    const shown = rules.filter((r) => !excluded(r));
    mrfSimple[action] = shown.map((r) => r.host);
    const reasons = shown.filter((r) => r.reason);
    if (reasons.length) mrfSimpleInfo[action] = Object.fromEntries(reasons.map((r) => [r.host, { reason: r.reason }]));
  }
  const keyword = config.group("mrf_keyword");
  return {
    exclusions: mrf.transparency_exclusions.length > 0,
    mrf_policies: policies,
    ...(policies.includes("SimplePolicy") ? { mrf_simple: mrfSimple, mrf_simple_info: mrfSimpleInfo } : {}),
    ...(policies.includes("KeywordPolicy")
      ? { mrf_keyword: { reject: keyword.reject, federated_timeline_removal: keyword.federated_timeline_removal, replace: keyword.replace.map((r) => ({ pattern: r.pattern, replacement: r.replacement })) } }
      : {}),
    ...(policies.includes("HashtagPolicy") ? { mrf_hashtag: { ...config.group("mrf_hashtag") } } : {}),
    ...(policies.includes("ObjectAgePolicy") ? { mrf_object_age: { ...config.group("mrf_object_age") } } : {}),
  };
}
