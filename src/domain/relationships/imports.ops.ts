// Follow, block and mute imports: the request only parses the list and starts a durable job; the job
// applies each entry as the user would, skipping accounts that are unknown or cannot be followed.
import { z } from "zod";
import { resolveRemoteAccount } from "../accounts/accounts.read.ts";
import { findAccountsByHandles } from "../accounts/lookup.ts";
import { requireAccount } from "../auth/policy.ts";
import type { Ctx } from "../context.ts";
import { DomainError } from "../../kernel/errors.ts";
import { operation } from "../operation.ts";
import { blockAs, muteAs } from "./blocks-mutes.ops.ts";
import { followAs } from "./follows.ops.ts";
import { IMPORT_JOB } from "./relationships.job-names.ts";
import { signedIn } from "./relationships.policy.ts";
import { MAX_LIST_TEXT } from "../input-limits.ts";

export const IMPORT_KINDS = ["follow", "block", "mute"] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/**
 * Account handles from an import list: whitespace-, newline- or comma-separated handles ("alice",
 * "@alice", "bob@remote.host"), or a CSV export whose header starts with "Account address" (the first
 * column of each row is taken). Duplicates are kept once, in order.
 */
export function parseImportList(text: string): string[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const csv = /^\s*"?account address"?\s*(,|$)/i.test(lines.find((l) => l.trim() !== "") ?? "");
  const tokens = csv
    ? lines.slice(lines.findIndex((l) => l.trim() !== "") + 1).map((l) => l.split(",")[0].replace(/^\s*"|"\s*$/g, ""))
    : text.split(/[\s,]+/);
  const handles = tokens.map((t) => t.trim().replace(/^@/, "")).filter((t) => t !== "" && !/^account address$/i.test(t));
  return [...new Set(handles)];
}

export interface ImportPayload {
  accountId: string;
  kind: ImportKind;
  identifiers: string[];
}

/**
 * Starts the import job of one kind; answers at once, as the family does ("job started"). One operation
 * per kind, each declaring the scope of the relationships it creates (the access rule cannot depend on
 * the input), which its REST route and GraphQL field derive their guard from.
 */
function importOperation(kind: ImportKind, scope: string) {
  return operation({
    name: `relationships.import${kind[0]!.toUpperCase()}${kind.slice(1)}s`,
    access: { scopes: ["follow", scope] },
    input: z.object({ list: z.string().max(MAX_LIST_TEXT) }),
    authorize: signedIn,
    async run(ctx, input) {
      const me = requireAccount(ctx);
      const identifiers = parseImportList(input.list);
      if (identifiers.length > 0) {
        const payload: ImportPayload = { accountId: me.id, kind, identifiers };
        await ctx.jobs.enqueue(IMPORT_JOB, payload);
      }
      return "job started" as const;
    },
  });
}

export const importFollows = importOperation("follow", "write:follows");
export const importBlocks = importOperation("block", "write:blocks");
export const importMutes = importOperation("mute", "write:mutes");

/** The import operation of each kind. */
export const IMPORTS: Record<ImportKind, typeof importFollows> = { follow: importFollows, block: importBlocks, mute: importMutes };

/** The job: applies the import entry by entry; refusals (unknown, blocked, yourself…) are skipped. */
export async function runImport(ctx: Ctx, payload: ImportPayload): Promise<{ done: string[]; skipped: string[] }> {
  const done: string[] = [];
  const skipped: string[] = [];
  const actor = await ctx.db.account.findUnique({ where: { id: payload.accountId } });
  if (!actor || actor.deactivated) return { done, skipped: payload.identifiers };
  const accounts = await findAccountsByHandles(ctx, payload.identifiers);
  for (const handle of payload.identifiers) {
    // a remote account not known here yet is fetched (one at a time: the job has time, peers have limits)
    const target = accounts.get(handle) ?? (await resolveRemoteAccount(ctx, handle).catch(() => null));
    if (!target) {
      skipped.push(handle);
      continue;
    }
    try {
      if (payload.kind === "follow") await followAs(ctx, actor, target);
      else if (payload.kind === "block") await blockAs(ctx, actor, target);
      else await muteAs(ctx, actor, target);
      done.push(handle);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error; // the job retries; every step is idempotent
      skipped.push(handle);
    }
  }
  return { done, skipped };
}
