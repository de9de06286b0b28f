// The reference admin API's domain blocks and allows are stored in their own tables (they carry ids,
// dates and comments the SimplePolicy lists have no room for); the policy reads only the runtime
// settings, so every reload adds each row's domain to the SimplePolicy lists its severity and flags name.
// What the configuration lists itself stays as it is: the effective rules are the union.
import type { InstanceDomainAllow, InstanceDomainBlock } from "../generated/prisma/client.ts";
import type { HostReason, RuntimeSettings } from "./runtime.ts";

type SimpleList = keyof RuntimeSettings["mrf_simple"];

/** The SimplePolicy lists a domain block puts its domain in (none for `noop` without flags). */
export function blockLists(block: Pick<InstanceDomainBlock, "severity" | "rejectMedia" | "rejectReports">): SimpleList[] {
  const lists: SimpleList[] = [];
  if (block.severity === "suspend") lists.push("reject");
  // the reference server's "limit": kept off the public timelines (the family's usual mapping)
  if (block.severity === "silence") lists.push("federated_timeline_removal");
  if (block.rejectMedia) lists.push("media_removal", "avatar_removal", "banner_removal");
  if (block.rejectReports) lists.push("report_removal");
  return lists;
}

export function applyDomainRules(next: RuntimeSettings, blocks: InstanceDomainBlock[], allows: InstanceDomainAllow[]) {
  const add = (list: HostReason[], entry: HostReason) => {
    if (!list.some((e) => e.host.toLowerCase() === entry.host)) list.push(entry);
  };
  for (const block of blocks) {
    const entry = { host: block.domain, reason: block.publicComment ?? "" };
    for (const list of blockLists(block)) add(next.mrf_simple[list], entry);
    // an obfuscated block is left out of what NodeInfo publishes
    if (block.obfuscate) add(next.mrf.transparency_exclusions, entry);
  }
  for (const allow of allows) add(next.mrf_simple.accept, { host: allow.domain, reason: "" });
}
