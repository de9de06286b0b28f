// Who may sign up and sign in, by address: the reference admin API's IP blocks (CIDR ranges with a
// severity, until they expire), e-mail domain blocks (the domain and its subdomains) and canonical e-mail
// blocks (the reference server's canonical form, hashed). Registration and password sign-in ask here.
import { createHash } from "node:crypto";
import { BlockList, isIP } from "node:net";
import type { IpBlock } from "../../generated/prisma/client.ts";
import type { Ctx } from "../context.ts";
import { Forbidden } from "../../kernel/errors.ts";

export const IP_BLOCK_SEVERITIES = ["sign_up_requires_approval", "sign_up_block", "no_access"] as const;
export type IpBlockSeverity = (typeof IP_BLOCK_SEVERITIES)[number];

/** `1.2.3.4`, `1.2.3.0/24`, `2001:db8::/32` → [address, prefix, family], or null when it is not one. */
export function parseCidr(raw: string): [string, number, "ipv4" | "ipv6"] | null {
  const [address = "", prefixText] = raw.trim().split("/");
  const version = isIP(address);
  if (!version) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return null;
  return [address, prefix, version === 4 ? "ipv4" : "ipv6"];
}

/** IPv4 addresses as IPv6-mapped (`::ffff:1.2.3.4`, how a dual-stack socket reports them) are matched as IPv4. */
function plainAddress(ip: string): [string, "ipv4" | "ipv6"] | null {
  const unmapped = ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  const version = isIP(unmapped);
  return version ? [unmapped, version === 4 ? "ipv4" : "ipv6"] : null;
}

export function ipMatches(block: Pick<IpBlock, "ip">, ip: string): boolean {
  const cidr = parseCidr(block.ip);
  const address = plainAddress(ip);
  if (!cidr || !address) return false;
  const list = new BlockList();
  list.addSubnet(cidr[0], cidr[1], cidr[2]);
  return list.check(address[0], address[1]);
}

/** The strictest unexpired IP block covering the request's address (none without one: CLI, jobs). */
export async function ipRestriction(ctx: Ctx): Promise<IpBlockSeverity | null> {
  const ip = ctx.clientIp;
  if (!ip) return null;
  const blocks = await ctx.db.ipBlock.findMany({ where: { OR: [{ expiresAt: null }, { expiresAt: { gt: ctx.clock() } }] } });
  const hits = new Set(blocks.filter((b) => ipMatches(b, ip)).map((b) => b.severity));
  return [...IP_BLOCK_SEVERITIES].reverse().find((s) => hits.has(s)) ?? null;
}

/** Sign-in from an address under `no_access` is refused. */
export async function assertSignInAllowed(ctx: Ctx): Promise<void> {
  if ((await ipRestriction(ctx)) === "no_access") throw Forbidden("Your IP address is not allowed to sign in");
}

/** The reference server's canonical address: lower case, the local part without dots and `+tag`. */
export function canonicalEmailHash(email: string): string {
  const [local = "", domain = ""] = email.trim().toLowerCase().split(/@(?=[^@]*$)/);
  const canonical = `${local.split("+")[0]!.replaceAll(".", "")}@${domain}`;
  return createHash("sha256").update(canonical).digest("hex");
}

/** Whether sign-up with this address is refused: its domain (or a parent) is blocked, or its canonical form. */
export async function emailBlocked(ctx: Ctx, email: string): Promise<boolean> {
  const domain = email.trim().toLowerCase().split("@").pop() ?? "";
  const labels = domain.split(".");
  const parents = labels.map((_, i) => labels.slice(i).join(".")).filter((d) => d.includes(".") || d === domain);
  const [byDomain, byHash] = await Promise.all([
    ctx.db.emailDomainBlock.count({ where: { domain: { in: parents } } }),
    ctx.db.canonicalEmailBlock.count({ where: { canonicalEmailHash: canonicalEmailHash(email) } }),
  ]);
  return byDomain + byHash > 0;
}
