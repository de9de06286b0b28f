// A direct reply joining a conversation creates the participations it lacks, in one transaction; a
// recipient who blocks the author gets one left as it is (not bumped). Two replies at once both creating
// that participation must not fail: the loser's row exists when its transaction writes it, and a 500
// there would lose the reply's conversation. Made deterministic: another connection inserts the same
// participation and holds it uncommitted, so the reply's INSERT waits on the unique index; it commits once
// that INSERT has been sent. PostgreSQL only: PGlite has one connection, so nothing runs beside a request.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { post, user, type User } from "../support/actors.ts";
import { startTestServer, type TestServer } from "../support/server.ts";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

describe("a direct reply racing another to create a participation on postgres", () => {
  let server: TestServer;
  let author: User, friend: User, blocker: User;
  beforeAll(async () => {
    server = await startTestServer("postgres");
    [author, friend, blocker] = [await user(server, "author"), await user(server, "friend"), await user(server, "blocker")];
    expect((await server.fetch(`/api/v1/accounts/${author.id}/block`, { method: "POST", headers: blocker.auth })).status).toBe(200);
  });
  afterAll(() => server?.close());

  test("the blocking recipient's participation, made meanwhile by another connection, is kept as it is: 200, one row", async () => {
    const first = await post(server, author, { status: `@${friend.nickname} hello`, visibility: "direct" });
    const { directConversationId } = await server.services.db.status.findUniqueOrThrow({ where: { id: first } });
    const other = new pg.Client({ connectionString: server.services.settings.databaseUrl });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query("INSERT INTO conversation_participations (id, conversation_id, account_id, unread) VALUES ('other', $1, $2, false)", [directConversationId, blocker.id]);
      let inserting!: () => void;
      const inserted = new Promise<void>((resolve) => (inserting = resolve));
      // the told participants' upserts are INSERT … ON CONFLICT DO UPDATE; the silent one's is the other INSERT
      const stop = server.database.onQuery((sql) => /^INSERT INTO "public"."conversation_participations"/.test(sql) && !/DO UPDATE/.test(sql) && inserting());
      const reply = server.fetch("/api/v1/statuses", { json: { status: `@${friend.nickname} @${blocker.nickname} reply`, visibility: "direct", in_reply_to_id: first }, headers: author.auth });
      await inserted;
      await other.query("COMMIT");
      const res = await reply;
      stop();
      expect(res.status).toBe(200);
    } finally {
      await other.end();
    }
    const rows = await server.services.db.conversationParticipation.findMany({ where: { conversationId: directConversationId!, accountId: blocker.id } });
    expect(rows).toEqual([expect.objectContaining({ id: "other", unread: false })]);
  });
});
