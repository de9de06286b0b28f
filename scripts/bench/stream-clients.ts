// The client side of `npm run bench:stream` (scripts/bench/stream.ts forks it with tsx): many streaming
// WebSockets in a process of their own, so the server process's memory counts the server's sockets only.
// A message is timestamped the moment it arrives and decoded only when the parent asks for the results,
// so that decoding one client's message does not delay the timestamp of the next.
//
// Protocol over the IPC channel (parent → child / child → parent):
//   {type: "clock"}                         → {type: "clock", now}
//   {type: "open", url, tokens, concurrency} → {type: "opened", opened, failed, errors, ms}
//   {type: "count"}                         → {type: "count", updates}
//   {type: "results"}                       → {type: "results", received: {statusId: [ms per client…]}, other}
//   {type: "close"}                         → {type: "closed"} and exit
import WebSocket from "ws";

type Message =
  | { type: "clock" }
  | { type: "open"; url: string; tokens: (string | null)[]; concurrency: number }
  | { type: "count" }
  | { type: "results" }
  | { type: "close" };

/** wall-clock milliseconds with sub-millisecond resolution, comparable with the parent's */
const now = () => performance.timeOrigin + performance.now();
const reply = (m: unknown) => process.send!(m);

const sockets: WebSocket[] = [];
/** per socket: arrival time and raw frame of every message, in order */
const arrivals: { at: number[]; data: Buffer[] }[] = [];
/** `update` frames seen so far (a cheap byte search, no decoding) */
let updates = 0;
const UPDATE = Buffer.from('"event":"update"');

function open(url: string, token: string | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(token ? `${url}&access_token=${encodeURIComponent(token)}` : url, { perMessageDeflate: false });
    const log = { at: [] as number[], data: [] as Buffer[] };
    ws.on("message", (data: Buffer) => {
      log.at.push(now());
      log.data.push(data);
      if (data.includes(UPDATE)) updates++;
    });
    ws.once("open", () => {
      sockets.push(ws);
      arrivals.push(log);
      resolve();
    });
    ws.once("unexpected-response", (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
    ws.once("error", reject);
  });
}

async function openAll(url: string, tokens: (string | null)[], concurrency: number) {
  const started = now();
  let next = 0;
  let failed = 0;
  const errors = new Set<string>();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, tokens.length) }, async () => {
      while (next < tokens.length) {
        const token = tokens[next++]!;
        await open(url, token).catch((e: Error) => {
          failed++;
          errors.add(e.message);
        });
      }
    }),
  );
  return { opened: sockets.length, failed, errors: [...errors].slice(0, 5), ms: now() - started };
}

/** status id → arrival time of its `update` at each socket that got it; other events counted by name */
function results() {
  const received: Record<string, number[]> = {};
  const other: Record<string, number> = {};
  for (const log of arrivals) {
    log.data.forEach((data, i) => {
      const m = JSON.parse(String(data)) as { event: string; payload?: string };
      if (m.event !== "update") return void (other[m.event] = (other[m.event] ?? 0) + 1);
      const id = (JSON.parse(m.payload!) as { id: string }).id;
      (received[id] ??= []).push(log.at[i]!);
    });
  }
  return { received, other };
}

process.on("message", async (m: Message) => {
  switch (m.type) {
    case "clock":
      return reply({ type: "clock", now: now() });
    case "open":
      return reply({ type: "opened", ...(await openAll(m.url, m.tokens, m.concurrency)) });
    case "count":
      return reply({ type: "count", updates });
    case "results":
      return reply({ type: "results", ...results() });
    case "close":
      await Promise.all(
        sockets.map(
          (ws) =>
            new Promise<void>((resolve) => {
              if (ws.readyState === WebSocket.CLOSED) return resolve();
              const timer = setTimeout(() => (ws.terminate(), resolve()), 2_000);
              ws.once("close", () => (clearTimeout(timer), resolve()));
              ws.close();
            }),
        ),
      );
      reply({ type: "closed" });
      process.disconnect();
      return;
  }
});
