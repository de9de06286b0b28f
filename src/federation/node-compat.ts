// Node 20 has no global `navigator` (Node 21 added it). Fedify reads `navigator?.userAgent` when it
// imports an Ed25519 JWK (queued deliveries carry their keys as JWK), and an undeclared identifier
// throws even with `?.`; a minimal one keeps that path working. Newer Node versions keep theirs.
if (typeof (globalThis as { navigator?: unknown }).navigator === "undefined") {
  Object.defineProperty(globalThis, "navigator", { value: { userAgent: `Node.js/${process.versions.node}` }, configurable: true, writable: true });
}
export {};
