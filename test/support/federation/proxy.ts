// The TLS front of a test network: one HTTPS server on port 443 of a loopback address of its own
// (so test files running at once never collide), routing by Host to plain-HTTP backends on loopback,
// as a reverse proxy in front of a real deployment would (X-Forwarded-Proto: https).
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { testPki } from "./tls.ts";

export interface TlsFront {
  address: string;
  /** routes `host` to one backend, or to several in turn (one instance served by several processes) */
  route(host: string, backendPort: number | number[]): void;
  close(): Promise<void>;
}

/** A free-looking loopback address: 127.<pid-derived>.<random>.<random>. */
function loopbackAddress(): string {
  const r = () => 1 + Math.floor(Math.random() * 250);
  return `127.${1 + (process.pid % 250)}.${r()}.${r()}`;
}

export async function startTlsFront(): Promise<TlsFront> {
  const pki = testPki();
  const routes = new Map<string, { ports: number[]; next: number }>();
  const server = https.createServer({ cert: pki.cert, key: pki.key }, (req, res) => {
    const host = (req.headers.host ?? "").split(":")[0].toLowerCase();
    const backends = routes.get(host);
    const port = backends?.ports[backends.next++ % backends.ports.length];
    if (!port) return void res.writeHead(502, { "content-type": "text/plain" }).end(`no backend for ${host}`);
    const upstream = http.request(
      { host: "127.0.0.1", port, method: req.method, path: req.url, headers: { ...req.headers, "x-forwarded-proto": "https", "x-forwarded-for": req.socket.remoteAddress ?? "" } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on("error", (e) => (res.headersSent ? res.destroy() : res.writeHead(502).end(String(e))));
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 1000;
  let address = "";
  for (let tries = 0; ; tries++) {
    address = loopbackAddress();
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(443, address, () => resolve());
      });
      break;
    } catch (error) {
      if (tries > 10 || (error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    }
  }
  void (server.address() as AddressInfo);
  return {
    address,
    route: (host, backendPort) => void routes.set(host.toLowerCase(), { ports: [backendPort].flat(), next: 0 }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
