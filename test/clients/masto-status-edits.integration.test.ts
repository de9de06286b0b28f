// Edits through an outside client (masto.js): `PUT /api/v1/statuses/:id`, the edit history and the
// source, in the shapes masto's `StatusEdit` and `StatusSource` declare; translation is not offered.
import { createRestAPIClient, type mastodon } from "masto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";

describe("status edits, history and source through masto", () => {
  let server: TestServer;
  let ann: ReturnType<typeof createRestAPIClient>;

  beforeAll(async () => {
    server = await startTestServer("pglite");
    await server.createUser("ann");
    ann = createRestAPIClient({ url: server.url, accessToken: (await passwordToken(server, "ann")).access_token });
  });
  afterAll(() => server?.close());

  test("an edit keeps the earlier versions; history lists each, oldest first; source is what was typed", async () => {
    const status = await ann.v1.statuses.create({ status: "first *draft*", spoilerText: "cw" });
    const edited = await ann.v1.statuses.$select(status.id).update({ status: "second text", spoilerText: "", sensitive: false });
    expect(edited).toMatchObject({ id: status.id, content: expect.stringContaining("second text"), spoilerText: "", editedAt: expect.stringMatching(/^\d{4}-/) });

    const history = await ann.v1.statuses.$select(status.id).history.list();
    expect(history).toHaveLength(2);
    for (const version of history) {
      expect(version).toMatchObject({
        content: expect.any(String),
        spoilerText: expect.any(String),
        sensitive: expect.any(Boolean),
        createdAt: expect.stringMatching(/^\d{4}-/),
        account: expect.objectContaining({ acct: "ann" }),
        mediaAttachments: [],
        emojis: [],
      } satisfies Partial<mastodon.v1.StatusEdit>);
    }
    expect(history[0]).toMatchObject({ content: expect.stringContaining("first"), spoilerText: "cw" });
    expect(history[1]).toMatchObject({ content: expect.stringContaining("second text"), spoilerText: "" });

    const source = await ann.v1.statuses.$select(status.id).source.fetch();
    // the family adds `content_type`
    expect(source).toEqual({ id: status.id, text: "second text", spoilerText: "", contentType: "text/plain" } as mastodon.v1.StatusSource);
    expect(await server.services.db.statusEdit.count({ where: { statusId: status.id } })).toBeGreaterThanOrEqual(1);
  });

  test("translation is not offered: configuration says so and translate answers 404", async () => {
    const instance = await ann.v2.instance.fetch();
    expect(instance.configuration.translation.enabled).toBe(false);
    const status = await ann.v1.statuses.create({ status: "bonjour" });
    await expect(ann.v1.statuses.$select(status.id).translate({ lang: "en" })).rejects.toMatchObject({ statusCode: 404 });
  });
});
