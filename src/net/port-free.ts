// Whether the server can listen where it was told to, asked before the database is opened and migrated
// (a busy port used to be found only after that: 17–41 s, then a stack trace).
import net from "node:net";
import { StartupError } from "../kernel/startup-error.ts";

/** The one-line StartupError for a listen failure of `host:port`, or the error itself when it is another. */
export function listenFailure(error: any, host: string, port: number): Error {
  const where = `${host}:${port}`;
  if (error?.code === "EADDRINUSE") return new StartupError(`port ${port} is already in use (${where}): stop what listens there, or set PORT to a free port`);
  if (error?.code === "EACCES") return new StartupError(`not allowed to listen on ${where}: ports below 1024 need privileges; set PORT to 1024 or above`);
  if (error?.code === "EADDRNOTAVAIL" || error?.code === "ENOTFOUND") return new StartupError(`HOST ${host} is not an address of this machine; set HOST to one (127.0.0.1, 0.0.0.0, ::)`);
  return error instanceof Error ? error : new Error(String(error));
}

/** Resolves when `host:port` can be listened on (port 0: always); else rejects with listenFailure's error. */
export function ensurePortFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (error) => reject(listenFailure(error, host, port)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
