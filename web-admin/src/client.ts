// The GraphQL client: queries and mutations over HTTP (with the session cookie and the CSRF header the
// server asks of cookie requests), subscriptions over graphql-ws on the same path.
import { Client, cacheExchange, fetchExchange, subscriptionExchange } from "@urql/core";
import { createClient as createWsClient } from "graphql-ws";

export const CSRF_HEADERS = { "x-csrf-protection": "1" };

const wsUrl = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/graphql`;
const ws = createWsClient({ url: wsUrl, lazy: true, retryAttempts: Infinity });

export const client = new Client({
  url: "/graphql",
  // lists change under us (other administrators, live events): always ask the server
  requestPolicy: "network-only",
  fetchOptions: () => ({ credentials: "same-origin", headers: CSRF_HEADERS }),
  exchanges: [
    cacheExchange,
    fetchExchange,
    subscriptionExchange({
      forwardSubscription: (request) => ({
        subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? "" }, sink) }),
      }),
    }),
  ],
});

/** Closes the WebSocket (after sign-out, so the next one carries the new session). */
export function resetSubscriptions() {
  ws.terminate();
}
