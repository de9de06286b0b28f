// ctl relay …: relay subscriptions (src/trpc/ctl-ops.ts, "relays.*").
import { flag, need, type Command } from "../command.ts";

interface Relay {
  actor: string;
  state: string;
  followedBack: boolean;
}

export const relayCommands: Record<string, Command> = {
  list: {
    usage: "",
    summary: "lists followed relays and their state",
    async run(inv) {
      const relays = await (await inv.backend()).call<Relay[]>("relays.list");
      inv.out.result(relays, () => (relays.length ? relays.map((r) => `${r.actor}  ${r.state}${r.followedBack ? "  follows back" : ""}`) : "no relays"));
    },
  },
  follow: {
    usage: "<relay actor url>",
    summary: "follows a relay (the Follow is delivered by the server's queue)",
    async run(inv) {
      const [relay_url] = need(inv, 1, "<relay actor url>");
      const r = await (await inv.backend()).call<Relay>("relays.follow", { relay_url });
      inv.out.result(r, () => `following relay ${r.actor} (${r.state})`);
    },
  },
  unfollow: {
    usage: "<relay actor url> [--force]",
    summary: "stops following a relay; --force drops one that is not known",
    async run(inv) {
      const [relay_url] = need(inv, 1, "<relay actor url>");
      const r = await (await inv.backend()).call<{ unfollowed: string }>("relays.unfollow", { relay_url, force: flag(inv, "force") ?? false });
      inv.out.result(r, () => `unfollowed relay ${r.unfollowed}`);
    },
  },
};
