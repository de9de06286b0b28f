// A TCP proxy the test controls, between a server process and what it stands on (PostgreSQL), to play the
// network's faults without touching the shared service:
// - pass:      bytes flow both ways; new connections are forwarded
// - cut:       every connection is destroyed (the client sees a reset) and new ones are refused
// - half-open: nothing is forwarded or read any more, yet every socket stays open (a network that silently
//              drops packets: no RST, no FIN, the client's writes are accepted by the kernel and never
//              answered); new connections are accepted and likewise never answered
// - refuse:    the listener is closed (ECONNREFUSED); connections already made keep flowing
// A connection frozen by half-open stays frozen after `pass`, as after a long partition the database has
// long dropped its side and nothing tells the client: only the client's own timeouts get rid of it.
import net from "node:net";

export type ProxyMode = "pass" | "cut" | "half-open" | "refuse";

export interface FaultProxy {
  port: number;
  mode(next: ProxyMode): Promise<void>;
  /** sockets open on the client side (frozen ones included) */
  openConnections(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<FaultProxy> {
  const pairs = new Set<{ client: net.Socket; upstream?: net.Socket }>();
  let current: ProxyMode = "pass";
  let server: net.Server | null = null;
  let port = 0;

  const freeze = (pair: { client: net.Socket; upstream?: net.Socket }) => {
    for (const s of [pair.client, pair.upstream]) {
      if (!s) continue;
      s.unpipe();
      s.pause();
    }
  };

  const accept = (client: net.Socket) => {
    const pair: { client: net.Socket; upstream?: net.Socket } = { client };
    pairs.add(pair);
    client.on("error", () => {});
    client.on("close", () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    if (current === "half-open") return void client.pause();
    const upstream = net.connect(targetPort, targetHost);
    pair.upstream = upstream;
    upstream.on("error", () => {});
    upstream.on("close", () => client.destroy());
    client.pipe(upstream).pipe(client);
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      if (server) return resolve();
      const s = net.createServer(accept);
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        port = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });
  const unlisten = async () => {
    const s = server;
    server = null;
    if (s) await new Promise<void>((r) => s.close(() => r()));
  };

  await listen();
  return {
    get port() {
      return port;
    },
    async mode(next) {
      current = next;
      if (next === "cut") {
        for (const { client, upstream } of pairs) {
          client.resetAndDestroy();
          upstream?.destroy();
        }
        await unlisten();
      } else if (next === "half-open") {
        for (const pair of pairs) freeze(pair);
        await listen();
      } else if (next === "refuse") await unlisten();
      else await listen();
    },
    openConnections: () => [...pairs].filter((p) => !p.client.destroyed).length,
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream?.destroy();
      }
      await unlisten();
    },
  };
}
