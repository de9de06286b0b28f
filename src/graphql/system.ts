import { builder } from "./builder.ts";

builder.subscriptionField("serverTime", (t) =>
  t.field({
    type: "DateTime",
    description: "The server clock, every `intervalMs` (a liveness heartbeat for live views)",
    args: { intervalMs: t.arg.int({ defaultValue: 1000 }) },
    subscribe: async function* (_root, args, ctx) {
      const interval = Math.min(Math.max(args.intervalMs ?? 1000, 100), 60_000);
      while (true) {
        yield ctx.clock();
        await new Promise((r) => setTimeout(r, interval));
      }
    },
    resolve: (time) => time,
  }),
);
