// The server's version, as NodeInfo, the instance endpoints, the OpenAPI document and the User-Agent of
// outgoing requests report it. A constant of its own so the outgoing fetcher (src/net) need not load the domain.
export const SOFTWARE_VERSION = "0.1.0";
