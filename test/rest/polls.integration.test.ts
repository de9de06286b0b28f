import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { systemCtx } from "../../src/domain/context.ts";
import { closePoll } from "../../src/domain/polls/polls.ops.ts";
import { CLOSE_POLL_JOB } from "../../src/domain/statuses/statuses.job-names.ts";
import { suiteKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { call, user, type User } from "./relationships-helpers.ts";
import { waitFor } from "../support/wait.ts";

describe.each(suiteKinds(import.meta.url))("polls on %s", (kind) => {
  let server: TestServer;
  let ana: User; // posts the polls
  let ben: User;
  let cat: User;

  const postPoll = async (poll: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const res = await server.fetch("/api/v1/statuses", { json: { status: "which?", poll: { options: ["a", "b", "c"], expires_in: 3600, ...poll }, ...extra }, headers: ana.auth });
    expect(res.status).toBe(200);
    const status = await res.json();
    return { statusId: status.id as string, poll: status.poll, id: status.poll.id as string };
  };
  const vote = (who: User, pollId: string, choices: unknown) =>
    server.fetch(`/api/v1/polls/${pollId}/votes`, { json: { choices }, headers: who.auth }).then(async (r) => ({ status: r.status, body: await r.json() }));
  const pollNotifications = (statusId: string) =>
    server.services.db.notification.findMany({ where: { type: "poll", statusId }, orderBy: { accountId: "asc" } });

  beforeAll(async () => {
    server = await startTestServer(kind);
    [ana, ben, cat] = [await user(server, "ana"), await user(server, "ben"), await user(server, "cat")];
  });
  afterAll(() => server?.close());

  test("a single-choice vote (choices[] form) is counted and answered with the poll", async () => {
    const { id, poll } = await postPoll({});
    // the author counts as having voted (they cannot vote), as in the reference API
    expect(poll).toMatchObject({ id, expired: false, multiple: false, votes_count: 0, voters_count: 0, voted: true, own_votes: [], own: { anonymous: null } });
    const asBen = await call(server, ben, "GET", `/api/v1/polls/${id}`);
    expect(asBen.body).toMatchObject({ voted: false, own_votes: [] });

    const voted = await call(server, ben, "POST", `/api/v1/polls/${id}/votes`, { "choices[]": "1" });
    expect(voted.status).toBe(200);
    expect(voted.body).toMatchObject({
      id,
      voted: true,
      own_votes: [1],
      votes_count: 1,
      voters_count: 1,
      options: [
        { title: "a", votes_count: 0 },
        { title: "b", votes_count: 1 },
        { title: "c", votes_count: 0 },
      ],
    });

    const anonymous = await call(server, null, "GET", `/api/v1/polls/${id}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toMatchObject({ id, voted: false, own_votes: [], votes_count: 1 });
    const mine = await call(server, ben, "GET", `/api/v1/polls/${id}`);
    expect(mine.body).toMatchObject({ voted: true, own_votes: [1] });
  });

  test("refusals: too many choices, out of range, none, the author, twice", async () => {
    const { id } = await postPoll({});
    expect(await vote(ben, id, [0, 1])).toEqual({ status: 422, body: { error: "Too many choices" } });
    expect(await vote(ben, id, [3])).toEqual({ status: 422, body: { error: "Invalid indices" } });
    expect(await vote(ben, id, [-1])).toEqual({ status: 422, body: { error: "Invalid indices" } });
    expect((await vote(ben, id, [])).status).toBe(422);
    expect(await vote(ana, id, [0])).toEqual({ status: 422, body: { error: "Poll's author can't vote" } });
    const missing = await call(server, ben, "POST", `/api/v1/polls/${id}/votes`, {});
    expect(missing.status).toBe(400);
    expect(await server.services.db.pollVote.count({ where: { pollId: id } })).toBe(0);

    expect((await vote(ben, id, [0, 0])).status).toBe(200); // the same index twice is one choice
    expect(await vote(ben, id, [2])).toEqual({ status: 422, body: { error: "Already voted" } });
    expect(await server.services.db.pollVote.count({ where: { pollId: id } })).toBe(1);
  });

  test("concurrent votes of one account: one wins", async () => {
    const { id } = await postPoll({});
    const results = await Promise.all([vote(cat, id, [0]), vote(cat, id, [1]), vote(cat, id, [2])]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422]);
    expect(await server.services.db.pollVote.count({ where: { pollId: id } })).toBe(1);
  });

  test("a multiple-choice poll takes several choices (JSON indices as strings too)", async () => {
    const { id } = await postPoll({ multiple: true });
    const res = await vote(ben, id, ["0", "2"]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ multiple: true, own_votes: [0, 2], votes_count: 2, voters_count: 1 });
    const second = await vote(cat, id, [2]);
    expect(second.body).toMatchObject({ votes_count: 3, voters_count: 2, options: [{ votes_count: 1 }, { votes_count: 0 }, { votes_count: 2 }] });
  });

  test("hide_totals hides the counts until the poll closes", async () => {
    const { id, poll } = await postPoll({ hide_totals: true });
    expect(poll).toMatchObject({ votes_count: null, voters_count: null, options: [{ votes_count: null }, { votes_count: null }, { votes_count: null }] });
    const voted = await vote(ben, id, [1]);
    expect(voted.body).toMatchObject({ voted: true, own_votes: [1], votes_count: null, options: [{ votes_count: null }, { votes_count: null }, { votes_count: null }] });
    await server.services.db.poll.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await closePoll(systemCtx(server.services), id);
    const closed = await call(server, null, "GET", `/api/v1/polls/${id}`);
    expect(closed.body).toMatchObject({ expired: true, votes_count: 1, voters_count: 1, options: [{ votes_count: 0 }, { votes_count: 1 }, { votes_count: 0 }] });
  });

  test("a poll is as visible as its status", async () => {
    const { id } = await postPoll({}, { visibility: "private" });
    expect((await call(server, null, "GET", `/api/v1/polls/${id}`)).status).toBe(404);
    expect((await call(server, ben, "GET", `/api/v1/polls/${id}`)).status).toBe(404);
    expect(await vote(ben, id, [0])).toEqual({ status: 404, body: { error: "Record not found" } });
    expect((await call(server, ana, "GET", `/api/v1/polls/${id}`)).status).toBe(200);
    expect((await call(server, null, "GET", `/api/v1/polls/nope`)).status).toBe(404);
    expect((await call(server, null, "POST", `/api/v1/polls/${id}/votes`, { "choices[]": "0" })).status).toBe(403);
  });

  test("the close job: closes once, notifies the author and every voter, refuses later votes", async () => {
    const { id, statusId } = await postPoll({ multiple: true });
    await vote(ben, id, [0, 1]);
    await vote(cat, id, [2]);
    await server.services.db.poll.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    // the job posted with the status is due in an hour: run the same job now through the queue
    await server.services.jobs.enqueue(CLOSE_POLL_JOB, { pollId: id });
    const notes = await waitFor(async () => {
      const n = await pollNotifications(statusId);
      return n.length === 3 && n;
    }, "three poll-ended notifications");
    expect(notes.map((n) => n.accountId).sort()).toEqual([ana.id, ben.id, cat.id].sort());
    expect(notes.every((n) => n.fromAccountId === ana.id)).toBe(true);
    expect((await server.services.db.poll.findUniqueOrThrow({ where: { id } })).closedAt).not.toBeNull();

    expect(await closePoll(systemCtx(server.services), id)).toBe(0); // a second run does nothing
    expect(await pollNotifications(statusId)).toHaveLength(3);
    expect(await vote(ben, id, [2])).toEqual({ status: 422, body: { error: "Poll has expired" } });
    const shown = await call(server, ben, "GET", `/api/v1/polls/${id}`);
    expect(shown.body).toMatchObject({ expired: true, voted: true, own_votes: [0, 1], votes_count: 3, voters_count: 2 });
  });

  test("a job that runs before the expiry (moved, or early) leaves the poll open", async () => {
    const { id, statusId } = await postPoll({});
    expect(await closePoll(systemCtx(server.services), id)).toBe(0);
    expect((await server.services.db.poll.findUniqueOrThrow({ where: { id } })).closedAt).toBeNull();
    expect(await pollNotifications(statusId)).toHaveLength(0);
    expect(await closePoll(systemCtx(server.services), "gone")).toBe(0);
  });

  test("posting with a short expiry enqueues the close job; the author is notified at expiry", async () => {
    const { id, statusId } = await postPoll({ expires_in: 1 });
    const notes = await waitFor(async () => {
      const n = await pollNotifications(statusId);
      return n.length === 1 && n;
    }, "the poll-ended notification of the author");
    expect(notes[0]).toMatchObject({ accountId: ana.id, fromAccountId: ana.id });
    const shown = await call(server, null, "GET", `/api/v1/polls/${id}`);
    expect(shown.body.expired).toBe(true);
    expect(await vote(ben, id, [0])).toEqual({ status: 422, body: { error: "Poll has expired" } });
    const status = await call(server, ben, "GET", `/api/v1/statuses/${statusId}`);
    expect(status.body.poll).toMatchObject({ id, expired: true });
  });
});
