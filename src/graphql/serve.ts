// GraphQL over HTTP (graphql-yoga at /graphql) and over WebSocket (graphql-ws on the /graphql upgrade).
// src/server.ts imports this module at the first GraphQL request or upgrade, not at start-up: the
// schema build, yoga and graphql-ws are about 30 MB of memory and a third of a second of CPU that a
// process serving only the REST API, federation or jobs never needs (docs/performance.md).
import type http from "node:http";
import type { Duplex } from "node:stream";
import type express from "express";
import { createYoga } from "graphql-yoga";
import { useGraphQlJit } from "@envelop/graphql-jit";
import { GraphQLError, execute, getOperationAST, parse, subscribe, validate } from "graphql";
import type { Plugin } from "graphql-yoga";
import { WebSocketServer, type WebSocket } from "ws";
import { useServer } from "graphql-ws/use/ws";
import { parse as parseCookie } from "cookie";
import { sessionCookieName } from "../http/credentials.ts";
import { authenticate, type Credentials } from "../domain/auth/authenticate.ts";
import { makeCtx, type Ctx, type Services, type Viewer } from "../domain/context.ts";
import { credentialWatch, REVOKED_CLOSE } from "../domain/auth/credential-watch.ts";
import { DomainError, Throttled } from "../kernel/errors.ts";
import { faultOf } from "../http/faults.ts";
import { viewerWrote } from "../http/routes/page-cache.ts";
import { sameOriginUpgrade } from "../http/csrf.ts";
import { unsafeGraphQLInput, useSafeInput } from "./safe-input.ts";
import { schema } from "./schema.ts";
import { useKeptQueries } from "./kept-queries.ts";
import { bodyAsStream } from "./request-body.ts";
import { documentLimitRules, documentLimits } from "./limits.ts";

/** GraphQL errors: domain errors keep their message and a code; anything else is masked. */
function maskError(error: unknown): GraphQLError {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (original instanceof Throttled) return new GraphQLError("Throttled", { extensions: { code: "THROTTLED", http: { status: 429 } } });
  if (original instanceof DomainError) return new GraphQLError(original.message, { extensions: { code: original.kind.toUpperCase(), fields: original.fields } });
  if (original instanceof GraphQLError) return original; // validation, syntax and authorization (Pothos) errors
  const fault = faultOf(original); // the database away or the disk full: 503/507, not an internal error
  if (fault) return new GraphQLError(fault.body.error, { extensions: { code: fault.status === 503 ? "SERVICE_UNAVAILABLE" : "INSUFFICIENT_STORAGE", http: { status: fault.status } } });
  console.error("graphql error:", original);
  return new GraphQLError("Unexpected error.", { extensions: { code: "INTERNAL_SERVER_ERROR" } });
}

/** A mutation is a write of its viewer, as a REST call other than GET: its cached REST pages are dropped (page-cache.ts). */
function useViewerWrites(): Plugin<Ctx> {
  return {
    onExecute({ args }) {
      if (getOperationAST(args.document, args.operationName)?.operation !== "mutation") return;
      const ctx = args.contextValue as Ctx;
      return { onExecuteDone: () => viewerWrote(ctx) };
    },
  };
}

export interface GraphqlServer {
  /** the HTTP endpoint (mounted at /graphql) */
  http: express.RequestHandler;
  /** a WebSocket upgrade of /graphql */
  handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
  /** closes the subscriptions (1001 "Going away") and the WebSocket server */
  close(): Promise<void>;
}

export function graphqlServer(services: Services, viewerCtx: (creds: Credentials, clientIp?: string) => Promise<Ctx>, credentialsOf: (req: express.Request) => Credentials): GraphqlServer {
  const { settings } = services;
  const yoga = createYoga<{ req: express.Request }, Ctx>({
    schema,
    graphqlEndpoint: "/graphql",
    // the explorer (GET /graphql from a browser): in development, or when an admin turns it on
    graphiql: () => settings.development || services.config.get("graphql", "explorer"),
    logging: false, // maskError logs what is unexpected; expected refusals are not noise
    maskedErrors: { maskError },
    plugins: [useSafeInput(), ...documentLimits(), useGraphQlJit(), useViewerWrites(), useKeptQueries()],
    context: async ({ req }) => viewerCtx(credentialsOf(req), req.ip),
  });

  const wss = new WebSocketServer({ noServer: true });
  // a socket's credentials are the same for each of its operations (its connection params and cookie):
  // watched from its first operation on, the socket closes (REVOKED_CLOSE) once they stop holding
  const watched = new WeakSet<WebSocket>();
  const watchSocket = (socket: WebSocket, viewer: Viewer, since: number) => {
    if (watched.has(socket) || socket.readyState !== socket.OPEN) return;
    watched.add(socket);
    const unwatch = credentialWatch(services).watch(viewer, () => socket.close(REVOKED_CLOSE.code, REVOKED_CLOSE.reason), since);
    socket.once("close", unwatch);
  };
  const gqlWs = useServer<Record<string, unknown>>(
    {
      schema,
      execute,
      // nothing reaches a socket whose credentials were revoked (the socket closes: watchSocket)
      subscribe: async (args) => {
        const result = await subscribe(args);
        return Symbol.asyncIterator in result ? credentialWatch(services).gate(result, (args.contextValue as Ctx).viewer) : result;
      },
      // the text rule of the input boundary: refuse NUL and unpaired surrogates before subscribing
      onSubscribe: (_ctx, _id, payload) => {
        let document;
        try {
          document = parse(payload.query);
        } catch {
          return; // graphql-ws answers the syntax error itself
        }
        const error = unsafeGraphQLInput(document, payload.variables);
        if (error) return [error];
        // the document limits yoga's plugins apply over HTTP (src/graphql/limits.ts)
        const tooBig = validate(schema, document, documentLimitRules());
        return tooBig.length ? [...tooBig] : undefined;
      },
      context: async ({ connectionParams, extra }) => {
        const since = Date.now();
        const auth = String(connectionParams?.authorization ?? connectionParams?.Authorization ?? "");
        const cookies = parseCookie(extra.request.headers.cookie ?? "");
        // the session cookie counts only on an upgrade from a page of this origin (cross-site WebSocket hijacking)
        const cookieOk = sameOriginUpgrade(extra.request.headers.origin, extra.request.headers.host);
        const creds: Credentials = auth.toLowerCase().startsWith("bearer ") ? { bearer: auth.slice(7).trim() } : cookieOk ? { sessionToken: cookies[sessionCookieName(settings.namespace)] } : {};
        const viewer = await authenticate(makeCtx(services), creds);
        watchSocket(extra.socket, viewer, since);
        return makeCtx(services, viewer);
      },
    },
    wss,
  );

  return {
    http: (req, res, next) => {
      bodyAsStream(req); // read in linear time (request-body.ts)
      return (yoga as unknown as express.RequestHandler)(req, res, next);
    },
    handleUpgrade: (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req)),
    async close() {
      await gqlWs.dispose(); // graphql-ws closes with 1001 "Going away"
      wss.close();
    },
  };
}
