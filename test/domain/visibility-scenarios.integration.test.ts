// One scenario table for "who sees this status where", run against both forms of the rules
// (src/domain/timelines/rules.ts): the timeline pages (Prisma, and SQL for home) read through
// GET /api/v1/timelines/*, and the streams (the in-memory predicates of the stream hub) read through
// the streaming API. Each row is a status and the timelines it must appear in for the viewer `me` and
// for an anonymous reader; every row is checked in every column in both forms, so a change to one
// form's rule (or to the rule list) fails here. Blocks both ways, mutes (of the author, of a
// reblogger, of a reblogged author), hidden reblogs, domain blocks, each visibility, keyword filters
// (hide and warn) and the replies settings of lists and home.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { suiteKinds } from "../support/databases.ts";
import { passwordToken, startTestServer, type TestServer } from "../support/server.ts";
import { openStream, type StreamClient } from "../streaming/helpers.ts";

/**
 * The columns: a timeline and its stream, read by `me` (signed in) or anonymously.
 * H home/user · Ll, Lf, Ln lists (replies policy list, followed, none) · P public · PL public?local / public:local ·
 * PR public?instance=ok.example / public:remote with that instance ·
 * T tag/hashtag · aP, aPL, aT the same three read anonymously.
 */
const COLUMNS = ["H", "Ll", "Lf", "Ln", "P", "PL", "PR", "T", "aP", "aPL", "aT"] as const;
type Column = (typeof COLUMNS)[number];

/** every column but PR (which lists one host's statuses only) */
const ALL: Column[] = COLUMNS.filter((c) => c !== "PR");
const LISTS: Column[] = ["Ll", "Lf", "Ln"];
const OPEN: Column[] = ["P", "PL", "T", "aP", "aPL", "aT"];
const ANONYMOUS: Column[] = ["aP", "aPL", "aT"];

interface Scenario {
  /** also the status's text, and its name for later rows (reply targets, reblogged statuses) */
  name: string;
  /** posts the status, answering its id */
  make: () => Promise<string>;
  in: Column[];
}

describe.each(suiteKinds(import.meta.url))("visibility scenarios: timelines and streams agree (%s)", (kind) => {
  let server: TestServer;
  const id: Record<string, string> = {};
  const token: Record<string, string> = {};
  const list: Record<"Ll" | "Lf" | "Ln", string> = { Ll: "", Lf: "", Ln: "" };
  const status: Record<string, string> = {};
  const streams = new Map<Column, StreamClient>();

  const as = (who: string | null, path: string, init: { json?: unknown; method?: string } = {}) =>
    server.fetch(path, { ...init, headers: who ? { authorization: `Bearer ${token[who]}` } : {} });
  const ok = async (res: Promise<Response>) => {
    const r = await res;
    const body = await r.json();
    expect(r.status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const post = async (who: string, text: string, extra: Record<string, unknown> = {}) => (await ok(as(who, "/api/v1/statuses", { json: { status: text, ...extra } }))).id as string;
  const reblog = async (who: string, of: string) => (await ok(as(who, `/api/v1/statuses/${status[of]}/reblog`, { json: {} }))).id as string;
  const reply = (who: string, to: string, text: string) => post(who, text, { in_reply_to_id: status[to] });

  /** A status from another instance, stored as inbound federation stores one, and announced on the bus as it does. */
  const remotePost = async (who: string, text: string) => {
    const sid = newId();
    const host = server.services.db;
    const account = await host.account.findUniqueOrThrow({ where: { id: id[who] } });
    const tag = await host.tag.upsert({ where: { name: "zoo" }, create: { id: newId(), name: "zoo" }, update: {} });
    await host.status.create({
      data: { id: sid, uri: `https://${account.domain}/objects/${sid}`, accountId: account.id, local: false, content: `<p>${text} #zoo</p>`, visibility: "public", context: `https://${account.domain}/contexts/${sid}`, tags: { create: [{ tagId: tag.id }] } },
    });
    server.services.bus.publish("status_created", { statusId: sid });
    return sid;
  };

  // The table. Posts carry #zoo (the tag column) unless they are reply targets or reblogs.
  const SCENARIOS: Scenario[] = [
    // visibilities
    { name: "friend public", make: () => post("friend", "friend public #zoo"), in: ALL },
    { name: "friend unlisted", make: () => post("friend", "friend unlisted #zoo", { visibility: "unlisted" }), in: ["H", ...LISTS] },
    { name: "friend private", make: () => post("friend", "friend private #zoo", { visibility: "private" }), in: ["H", ...LISTS] },
    { name: "friend local-only", make: () => post("friend", "friend local-only #zoo", { visibility: "local" }), in: ["H", ...LISTS, "P", "PL", "T"] },
    { name: "friend direct to me", make: () => post("friend", "@me friend direct to me #zoo", { visibility: "direct" }), in: ["H", ...LISTS] },
    { name: "friend direct to a stranger", make: () => post("friend", "@stranger friend direct to a stranger #zoo", { visibility: "direct" }), in: [] },
    { name: "stranger public", make: () => post("stranger", "stranger public #zoo"), in: OPEN },
    { name: "stranger private", make: () => post("stranger", "stranger private #zoo", { visibility: "private" }), in: [] },
    { name: "stranger local-only", make: () => post("stranger", "stranger local-only #zoo", { visibility: "local" }), in: ["P", "PL", "T"] },
    // blocks both ways, mutes, hidden reblogs
    { name: "blocked by me", make: () => post("blocked", "blocked by me #zoo"), in: ANONYMOUS },
    { name: "blocking me", make: () => post("blocker", "blocking me #zoo"), in: ANONYMOUS },
    { name: "muted (followed, listed)", make: () => post("muted", "muted (followed, listed) #zoo"), in: ANONYMOUS },
    { name: "friend reblogs a stranger", make: () => reblog("friend", "stranger public"), in: ["H", ...LISTS] },
    { name: "friend reblogs the muted", make: () => reblog("friend", "muted (followed, listed)"), in: [] },
    { name: "the muted reblogs friend", make: () => reblog("muted", "friend public"), in: [] },
    { name: "hider (reblogs hidden) public", make: () => post("hider", "hider (reblogs hidden) public #zoo"), in: ["H", ...OPEN] },
    { name: "hider reblogs a stranger", make: () => reblog("hider", "stranger public"), in: [] },
    { name: "the blocked reblogs friend", make: () => reblog("blocked", "friend public"), in: [] },
    // domain blocks (remote statuses are neither local nor on the local timeline)
    { name: "followed, domain-blocked", make: () => remotePost("far", "followed, domain-blocked"), in: ["aP", "aT"] },
    { name: "remote, not blocked", make: () => remotePost("near", "remote, not blocked"), in: ["P", "PR", "T", "aP", "aT"] },
    // keyword filters of `me` in home and public: hide drops, warn only marks (checked below)
    { name: "friend spinach", make: () => post("friend", "friend spinach #zoo"), in: ANONYMOUS },
    { name: "friend kale", make: () => post("friend", "friend kale #zoo"), in: ALL },
    // replies: reply targets first (no tag), then replies by a listed friend
    { name: "root by me", make: () => post("me", "root by me"), in: ["H", "P", "PL", "aP", "aPL"] },
    { name: "root by pal", make: () => post("pal", "root by pal"), in: ["H", ...LISTS, "P", "PL", "aP", "aPL"] },
    { name: "root by followed", make: () => post("followed", "root by followed"), in: ["H", "P", "PL", "aP", "aPL"] },
    { name: "root by stranger", make: () => post("stranger", "root by stranger"), in: ["P", "PL", "aP", "aPL"] },
    { name: "root by friend", make: () => post("friend", "root by friend"), in: ["H", ...LISTS, "P", "PL", "aP", "aPL"] },
    { name: "friend replies to me", make: () => reply("friend", "root by me", "friend replies to me #zoo"), in: ALL },
    { name: "friend replies to a listed pal", make: () => reply("friend", "root by pal", "friend replies to a listed pal #zoo"), in: ["H", "Ll", "Lf", ...OPEN] },
    { name: "friend replies to a followed non-member", make: () => reply("friend", "root by followed", "friend replies to a followed non-member #zoo"), in: ["H", "Lf", ...OPEN] },
    // home shows a followed account's replies to people the viewer does not follow
    { name: "friend replies to a stranger", make: () => reply("friend", "root by stranger", "friend replies to a stranger #zoo"), in: ["H", ...OPEN] },
    { name: "friend replies to itself", make: () => reply("friend", "root by friend", "friend replies to itself #zoo"), in: ALL },
    { name: "stranger replies to friend", make: () => reply("stranger", "root by friend", "stranger replies to friend #zoo"), in: OPEN },
    // last: in every column, so once each stream has it, each has had every earlier event (one ordered queue)
    { name: "sentinel", make: () => post("friend", "sentinel #zoo"), in: ALL },
  ];

  const streamOf: Record<Column, () => string> = {
    H: () => `stream=user&access_token=${token.me}`,
    Ll: () => `stream=list&list=${list.Ll}&access_token=${token.me}`,
    Lf: () => `stream=list&list=${list.Lf}&access_token=${token.me}`,
    Ln: () => `stream=list&list=${list.Ln}&access_token=${token.me}`,
    P: () => `stream=public&access_token=${token.me}`,
    PL: () => `stream=public:local&access_token=${token.me}`,
    PR: () => `stream=public:remote&instance=ok.example&access_token=${token.me}`,
    T: () => `stream=hashtag&tag=zoo&access_token=${token.me}`,
    aP: () => "stream=public",
    aPL: () => "stream=public:local",
    aT: () => "stream=hashtag&tag=zoo",
  };
  const timelineOf: Record<Column, () => [string | null, string]> = {
    H: () => ["me", "/api/v1/timelines/home"],
    Ll: () => ["me", `/api/v1/timelines/list/${list.Ll}`],
    Lf: () => ["me", `/api/v1/timelines/list/${list.Lf}`],
    Ln: () => ["me", `/api/v1/timelines/list/${list.Ln}`],
    P: () => ["me", "/api/v1/timelines/public"],
    PL: () => ["me", "/api/v1/timelines/public?local=true"],
    PR: () => ["me", "/api/v1/timelines/public?instance=ok.example"],
    T: () => ["me", "/api/v1/timelines/tag/zoo"],
    aP: () => [null, "/api/v1/timelines/public"],
    aPL: () => [null, "/api/v1/timelines/public?local=true"],
    aT: () => [null, "/api/v1/timelines/tag/zoo"],
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    for (const nick of ["me", "friend", "pal", "followed", "stranger", "blocked", "blocker", "muted", "hider"]) {
      id[nick] = (await server.createUser(nick)).id;
      token[nick] = (await passwordToken(server, nick)).access_token;
    }
    for (const [nick, host] of [["far", "blocked.example"], ["near", "ok.example"]]) {
      const account = await server.services.db.account.create({ data: { id: newId(), nickname: `${nick}@${host}`, domain: host, local: false, apId: `https://${host}/users/${nick}` } });
      id[nick] = account.id;
    }
    for (const who of ["friend", "pal", "followed", "muted"]) await ok(as("me", `/api/v1/accounts/${id[who]}/follow`, { json: {} }));
    await ok(as("me", `/api/v1/accounts/${id.hider}/follow`, { json: { reblogs: false } }));
    await ok(as("me", `/api/v1/accounts/${id.muted}/mute`, { json: {} }));
    await ok(as("me", `/api/v1/accounts/${id.blocked}/block`, { json: {} }));
    await ok(as("blocker", `/api/v1/accounts/${id.me}/block`, { json: {} }));
    await ok(as("me", "/api/v1/domain_blocks", { json: { domain: "blocked.example" } }));
    // a follow of a remote account, as an accepted federated follow leaves it
    await server.services.db.follow.create({ data: { id: newId(), followerId: id.me, followingId: id.far, state: "accept" } });
    await ok(as("me", "/api/v2/filters", { json: { title: "hidden greens", context: ["home", "public"], filter_action: "hide", keywords_attributes: [{ keyword: "spinach" }] } }));
    await ok(as("me", "/api/v2/filters", { json: { title: "warned greens", context: ["home", "public"], filter_action: "warn", keywords_attributes: [{ keyword: "kale" }] } }));
    for (const [col, policy] of [["Ll", "list"], ["Lf", "followed"], ["Ln", "none"]] as const) {
      list[col] = (await ok(as("me", "/api/v1/lists", { json: { title: `replies ${policy}`, replies_policy: policy } }))).id;
      await ok(as("me", `/api/v1/lists/${list[col]}/accounts`, { json: { account_ids: [id.friend, id.pal, id.muted] } }));
    }
    for (const col of COLUMNS) streams.set(col, await openStream(server, `/api/v1/streaming?${streamOf[col]()}`));
    for (const s of SCENARIOS) status[s.name] = await s.make();
    await Promise.all(ALL.map((col) => streams.get(col)!.next((m) => m.event === "update" && m.payload?.id === status.sentinel)));
    // PR does not list the sentinel: an answer on its connection comes after everything sent before it
    expect(await streams.get("PR")!.request({ type: "subscribe", stream: "public:remote", instance: "ok.example" })).toMatchObject({ result: "ignored" });
  }, 240_000); // eleven accounts (password hashing) and some 50 requests: slow on two busy cores
  afterAll(async () => {
    for (const c of streams.values()) c.close();
    await server?.close();
  });

  test("every scenario appears in the same timelines and streams, and only where the table says", async () => {
    expect(SCENARIOS.length).toBeLessThan(40); // one page of each timeline holds them all
    const inTimeline = new Map<Column, Set<string>>();
    for (const col of COLUMNS) {
      const [who, path] = timelineOf[col]();
      const page = (await ok(as(who, `${path}${path.includes("?") ? "&" : "?"}limit=40`))) as { id: string }[];
      inTimeline.set(col, new Set(page.map((s) => s.id)));
    }
    const inStream = new Map<Column, Set<string>>();
    for (const [col, c] of streams) inStream.set(col, new Set(c.messages.filter((m) => m.event === "update").map((m) => m.payload.id as string)));

    const wrong: { scenario: string; column: Column; expected: boolean; timeline: boolean; stream: boolean }[] = [];
    for (const s of SCENARIOS) {
      for (const column of COLUMNS) {
        const expected = s.in.includes(column);
        const timeline = inTimeline.get(column)!.has(status[s.name]!);
        const stream = inStream.get(column)!.has(status[s.name]!);
        if (timeline !== expected || stream !== expected) wrong.push({ scenario: s.name, column, expected, timeline, stream });
      }
    }
    expect(wrong).toEqual([]);
  });

  test("a warn filter marks the status alike in the timeline and the stream; anonymous readers get no mark", async () => {
    const kale = status["friend kale"]!;
    const fromTimeline = ((await ok(as("me", "/api/v1/timelines/home?limit=40"))) as any[]).find((s) => s.id === kale);
    const fromStream = streams.get("H")!.messages.find((m) => m.event === "update" && m.payload.id === kale)!.payload;
    expect(fromTimeline.filtered).toEqual([expect.objectContaining({ filter: expect.objectContaining({ title: "warned greens", filter_action: "warn" }), keyword_matches: ["kale"] })]);
    expect(fromStream.filtered).toEqual(fromTimeline.filtered);
    expect(streams.get("aP")!.messages.find((m) => m.event === "update" && m.payload.id === kale)!.payload.filtered ?? []).toEqual([]);
  });
});
