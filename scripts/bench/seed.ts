// Seeds the reading-side benchmark database with plain SQL (INSERT … SELECT generate_series): accounts,
// statuses (originals, replies, reblogs, hashtags, mentions, every visibility), follows, notifications,
// favourites, a few mutes/blocks and a domain block. Rows are derived from their row number through
// pg_temp functions, so a reply can name its parent's id and author without a lookup table.
import type pg from "pg";

export interface SeedSizes {
  accounts: number;
  statuses: number;
  /** accounts the benchmark user follows */
  following: number;
  /** follows per ordinary account */
  followsEach: number;
  notifications: number;
  /** notifications of the other accounts, so the planner sees a table shared by many owners */
  otherNotifications: number;
  favourites: number;
  /** bookmarks, reactions, media attachments and mutes/blocks between other accounts (each) */
  extras: number;
}

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"; // src/db/ids.ts
const DAY = 86_400_000;
const LOREM =
  "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua ut enim ad minim veniam quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur excepteur sint occaecat cupidatat non proident sunt in culpa qui officia deserunt mollit anim id est laborum";
/** remote accounts live on this many instances; the benchmark user blocks the last one */
const REMOTE_DOMAINS = 20;
export const BLOCKED_DOMAIN = `remote${REMOTE_DOMAINS - 1}.example`;
/** status ids in the same format as src/db/ids.ts: 10 characters of milliseconds, 16 of (here hashed) randomness */
function b32(len: number) {
  return Array.from({ length: len }, (_, k) => `substr('${ALPHABET}', ((v >> ${5 * (len - 1 - k)}) & 31)::int + 1, 1)`).join(" || ");
}

/**
 * Status number i (1…S) has:
 *   - slot i % 10 (the first 30 are plain public posts): 0 = reblog, 1–2 = reply, 3 = original with a varying
 *     visibility (direct, private, unlisted, public), 4–9 = public original (4 and 5 carry a hashtag);
 *   - author 0 (the benchmark user) when i % 1000 = 7, else a hashed account;
 *   - target (replied to / reblogged): a public original up to `window` statuses back.
 */
function functions(sizes: SeedSizes, t0: number, step: number) {
  const N = sizes.accounts;
  const window = 5000; // in tens of statuses: replies and reblogs reach back at most 50,000 statuses
  return `
CREATE FUNCTION pg_temp.b32_10(v bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT ${b32(10)} $$;
CREATE FUNCTION pg_temp.b32_8(v bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT ${b32(8)} $$;
CREATE FUNCTION pg_temp.h(i bigint, seed bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT hashint8extended(i, seed) & 9223372036854775807 $$;
CREATE FUNCTION pg_temp.bench_id(ms bigint, seq bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT pg_temp.b32_10(ms) || pg_temp.b32_8(hashint8extended(seq, 1) & 1099511627775) || pg_temp.b32_8(hashint8extended(seq, 2) & 1099511627775) $$;
CREATE FUNCTION pg_temp.sms(i bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT ${t0}::bigint + i * ${step} $$;
CREATE FUNCTION pg_temp.sid(i bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT pg_temp.bench_id(pg_temp.sms(i), i) $$;
CREATE FUNCTION pg_temp.slot(i bigint) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT CASE WHEN i >= 30 THEN (i % 10)::int ELSE 9 END $$;
CREATE FUNCTION pg_temp.author(i bigint) RETURNS int LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN i % 1000 = 7 THEN 0 ELSE (1 + pg_temp.h(i, 3) % ${N})::int END $$;
CREATE FUNCTION pg_temp.target(i bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN i >= 30 THEN ((i / 10) - 1 - pg_temp.h(i, 4) % LEAST(${window}, i / 10 - 2)) * 10 + 4 + pg_temp.h(i, 5) % 6 ELSE i END $$;
CREATE FUNCTION pg_temp.tagidx(i bigint) RETURNS int LANGUAGE sql IMMUTABLE AS $$
  SELECT floor(1000 * power((pg_temp.h(i, 6) % 1000000) / 1000000.0, 3))::int $$;
CREATE FUNCTION pg_temp.vis(i bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE pg_temp.slot(i)
    WHEN 1 THEN (ARRAY['unlisted','private','public','public','public','public','public','public','public','public'])[((i / 10) % 10 + 1)::int]
    WHEN 2 THEN (ARRAY['unlisted','private','public','public','public','public','public','public','public','public'])[((i / 10) % 10 + 1)::int]
    WHEN 3 THEN (ARRAY['direct','private','unlisted','public'])[((i / 10) % 4 + 1)::int]
    ELSE 'public' END $$;
-- who a direct or private original addresses: now and then the benchmark user
CREATE FUNCTION pg_temp.mentioned(i bigint) RETURNS int LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN (i / 40) % 25 = 0 THEN 0 ELSE (1 + pg_temp.h(i, 7) % ${N})::int END $$;
CREATE FUNCTION pg_temp.words(i bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT 'Post ' || i || ': ' || substr('${LOREM}', 1 + (pg_temp.h(i, 8) % 200)::int, 40 + (pg_temp.h(i, 9) % 150)::int) $$;
-- a public original about this many statuses back, for notifications and favourites
CREATE FUNCTION pg_temp.public_original(r bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT (3 + r % ${Math.max(1, Math.floor(sizes.statuses / 10) - 3)}) * 10 + 4 + (r / 7) % 6 $$;
CREATE TEMP TABLE bench_accounts (n int PRIMARY KEY, id text NOT NULL, local boolean NOT NULL, domain text);`;
}

type Log = (message: string) => void;

async function timed<T>(log: Log, label: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await fn();
  log(`${label} (${((performance.now() - start) / 1000).toFixed(1)} s)`);
  return result;
}

/** Seeds everything around the already-created benchmark account `benchId`. */
export async function seed(
  client: Pick<pg.Client, "query">,
  opts: { base: string; benchId: string; sizes: SeedSizes; log: Log; writerId?: string; writerFollowers?: number },
) {
  const { base, benchId, sizes, log, writerId, writerFollowers = 1000 } = opts;
  const { accounts: N, statuses: S } = sizes;
  if (S < 1000) throw new Error("BENCH_STATUSES must be at least 1000");
  const now = Date.now();
  // statuses span the last year up to a minute ago; accounts were created in the year before
  const step = Math.max(1, Math.floor((365 * DAY) / S));
  const t0 = now - 60_000 - S * step;
  const accountT0 = t0 - 365 * DAY;
  const q = (sql: string, values?: unknown[]) => client.query(sql, values);

  await q("SET session_replication_role = replica"); // no FK triggers: the data is consistent by construction
  await q("SET maintenance_work_mem = '512MB'");
  await q("SET synchronous_commit = off");
  await q(functions(sizes, t0, step));

  await timed(log, `accounts: ${N}`, async () => {
    await q(`INSERT INTO bench_accounts VALUES (0, $1, true, NULL)`, [benchId]);
    await q(`
      INSERT INTO bench_accounts
      SELECT n, pg_temp.bench_id(${accountT0}::bigint + n * ${Math.floor((365 * DAY) / N)}, n), n % 10 < 7,
             CASE WHEN n % 10 < 7 THEN NULL ELSE 'remote' || (n % ${REMOTE_DOMAINS}) || '.example' END
      FROM generate_series(1::bigint, ${N}) n`);
    await q(`
      INSERT INTO accounts (id, nickname, domain, local, display_name, note, ap_id, deactivated, created_at, updated_at, last_status_at)
      SELECT b.id, CASE WHEN b.local THEN 'user' || b.n ELSE 'user' || b.n || '@' || b.domain END, b.domain, b.local,
             'User ' || b.n, 'Benchmark account number ' || b.n,
             CASE WHEN b.local THEN $1 || '/users/user' || b.n ELSE 'https://' || b.domain || '/users/user' || b.n END,
             b.n % 500 = 499, to_timestamp((${accountT0}::bigint + b.n::bigint * ${Math.floor((365 * DAY) / N)}) / 1000.0) AT TIME ZONE 'UTC',
             now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
      FROM bench_accounts b WHERE b.n > 0`,
      [base],
    );
  });

  // secondary indexes are dropped while the big tables fill and rebuilt once (much faster than row by row)
  const big = ["statuses", "status_tags", "mentions", "notifications"];
  const { rows: indexes } = await q(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i
     WHERE i.schemaname = 'public' AND i.tablename = ANY($1)
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    [big],
  );
  for (const ix of indexes) await q(`DROP INDEX "${ix.indexname}"`);

  const batch = 100_000;
  for (let from = 1; from <= S; from += batch) {
    const to = Math.min(S, from + batch - 1);
    await timed(log, `statuses ${to.toLocaleString("en")} / ${S.toLocaleString("en")}`, () =>
      q(
        `
      INSERT INTO statuses (id, uri, url, account_id, local, in_reply_to_id, in_reply_to_account_id, reblog_of_id, content, source,
                            visibility, context, recipient_ids, created_at, updated_at)
      SELECT g.id,
             CASE WHEN a.local THEN $1 || '/objects/' || g.id ELSE 'https://' || a.domain || '/objects/' || g.id END,
             CASE WHEN a.local THEN $1 || '/notice/' || g.id ELSE 'https://' || a.domain || '/notice/' || g.id END,
             a.id, a.local,
             CASE WHEN g.slot IN (1, 2) THEN pg_temp.sid(g.t) END,
             CASE WHEN g.slot IN (1, 2) THEN pa.id END,
             CASE WHEN g.slot = 0 THEN pg_temp.sid(g.t) END,
             CASE WHEN g.slot = 0 THEN '' ELSE '<p>' || pg_temp.words(g.i) ||
               CASE WHEN g.slot IN (4, 5) THEN ' <a class="hashtag" href="' || $1 || '/tag/tag' || pg_temp.tagidx(g.i) || '" rel="tag">#tag' || pg_temp.tagidx(g.i) || '</a>' ELSE '' END || '</p>' END,
             CASE WHEN g.slot = 0 OR NOT a.local THEN '' ELSE pg_temp.words(g.i) ||
               CASE WHEN g.slot IN (4, 5) THEN ' #tag' || pg_temp.tagidx(g.i) ELSE '' END END,
             pg_temp.vis(g.i)::"Visibility",
             $1 || '/contexts/' || CASE WHEN g.slot IN (0, 1, 2) THEN pg_temp.sid(g.t) ELSE g.id END,
             CASE WHEN g.slot IN (1, 2) THEN ARRAY[pa.id] WHEN g.slot = 3 AND (g.i / 10) % 4 < 2 THEN ARRAY[ma.id] ELSE '{}'::text[] END,
             to_timestamp(pg_temp.sms(g.i) / 1000.0) AT TIME ZONE 'UTC',
             to_timestamp(pg_temp.sms(g.i) / 1000.0) AT TIME ZONE 'UTC'
      FROM (SELECT i, pg_temp.sid(i) AS id, pg_temp.slot(i) AS slot, pg_temp.target(i) AS t FROM generate_series($2::bigint, $3::bigint) i) g
      JOIN bench_accounts a ON a.n = pg_temp.author(g.i)
      LEFT JOIN bench_accounts pa ON g.slot IN (1, 2) AND pa.n = pg_temp.author(g.t)
      LEFT JOIN bench_accounts ma ON g.slot = 3 AND ma.n = pg_temp.mentioned(g.i)`,
        [base, from, to],
      ),
    );
  }

  await timed(log, "reblogs made unique per account", () =>
    // (account_id, reblog_of_id) is unique: the rare hashed duplicate becomes an ordinary post
    q(`
      UPDATE statuses s SET reblog_of_id = NULL, content = '<p>boost</p>', source = 'boost'
      FROM (SELECT id, row_number() OVER (PARTITION BY account_id, reblog_of_id ORDER BY id) AS rn FROM statuses WHERE reblog_of_id IS NOT NULL) d
      WHERE d.id = s.id AND d.rn > 1`),
  );

  await timed(log, "hashtags (tags, status_tags)", async () => {
    await q(`INSERT INTO tags (id, name) SELECT pg_temp.bench_id(${t0 - 1000}::bigint + k, 900000000 + k), 'tag' || k FROM generate_series(0, 999) k`);
    await q(`
      INSERT INTO status_tags (status_id, tag_id)
      SELECT pg_temp.sid(i), t.id FROM generate_series(30, ${S}) i JOIN tags t ON t.name = 'tag' || pg_temp.tagidx(i)
      WHERE i % 10 IN (4, 5)`);
  });

  await timed(log, "mentions", () => q(`INSERT INTO mentions (status_id, account_id) SELECT id, recipient_ids[1] FROM statuses WHERE cardinality(recipient_ids) > 0`));

  await timed(log, `follows: the benchmark user follows ${Math.min(sizes.following, N)}, every account ${sizes.followsEach} on average`, async () => {
    const followMs = accountT0 + 365 * DAY - 1000;
    // a skewed graph, as on a real instance: how many an account follows varies (1 … 2 × followsEach), and half of
    // the follows go to popular accounts (the target's number drawn as N·u³, so low-numbered accounts collect most
    // followers: account 1 about a tenth of everyone, the median account a handful), the other half uniformly
    await q(`
      INSERT INTO follows (id, follower_id, following_id, state, updated_at, created_at)
      SELECT pg_temp.bench_id(${followMs}::bigint - (f.n * ${2 * sizes.followsEach} + k), 800000000 + f.n * ${2 * sizes.followsEach} + k), f.id, t.id, 'accept',
             now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
      FROM bench_accounts f CROSS JOIN generate_series(1, ${2 * sizes.followsEach}) k
      JOIN bench_accounts t ON t.n = CASE WHEN k % 2 = 0 THEN 1 + floor(${N} * power((pg_temp.h(f.n * 100 + k, 33) % 1000000) / 1000000.0, 3))::int
                                          ELSE 1 + pg_temp.h(f.n * 100 + k, 31) % ${N} END
      WHERE f.n > 0 AND t.n <> f.n AND k <= 1 + pg_temp.h(f.n, 34) % ${2 * sizes.followsEach}
      ON CONFLICT (follower_id, following_id) DO NOTHING`);
    if (writerId) {
      // the writer of the write benchmark: followed by `writerFollowers` local accounts (its posts fan out to them)
      await q(`
        INSERT INTO follows (id, follower_id, following_id, state, updated_at, created_at)
        SELECT pg_temp.bench_id(${followMs}::bigint + 20000 + f.n, 720000000 + f.n), f.id, $1, 'accept', now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
        FROM (SELECT * FROM bench_accounts WHERE local AND n > 0 ORDER BY n LIMIT ${writerFollowers}) f
        ON CONFLICT (follower_id, following_id) DO NOTHING`,
        [writerId],
      );
    }
    // the benchmark user follows every (N / following)-th account; 300 accounts follow it back
    await q(`
      INSERT INTO follows (id, follower_id, following_id, state, updated_at, created_at)
      SELECT pg_temp.bench_id(${followMs}::bigint + k, 700000000 + k), $1, t.id, 'accept', now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
      FROM generate_series(0, ${Math.min(sizes.following, N) - 1}) k JOIN bench_accounts t ON t.n = 1 + (k * ${N}) / ${Math.min(sizes.following, N)}
      ON CONFLICT (follower_id, following_id) DO NOTHING`,
      [benchId],
    );
    await q(`
      INSERT INTO follows (id, follower_id, following_id, state, updated_at, created_at)
      SELECT pg_temp.bench_id(${followMs}::bigint + 5000 + k, 710000000 + k), f.id, $1, 'accept', now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
      FROM generate_series(1, 300) k JOIN bench_accounts f ON f.n = 1 + pg_temp.h(k, 32) % ${N}
      ON CONFLICT (follower_id, following_id) DO NOTHING`,
      [benchId],
    );
  });

  await timed(log, "mutes, blocks, a domain block", async () => {
    // mutes hit followed accounts (they leave the home timeline); blocks hit others
    const stride = Math.max(1, Math.floor(N / Math.min(sizes.following, N)));
    await q(`
      INSERT INTO user_relationships (id, source_id, target_id, type, created_at)
      SELECT pg_temp.bench_id(${now}::bigint - 100000 + k, 600000000 + k), $1, t.id,
             (CASE WHEN k < 10 THEN 'mute' ELSE 'block' END)::"RelationshipType", now() AT TIME ZONE 'UTC'
      FROM generate_series(0, 14) k
      JOIN bench_accounts t ON t.n = CASE WHEN k < 10 THEN 1 + k * 37 * ${stride} ELSE 2 + k * 41 END
      WHERE t.n <= ${N}
      ON CONFLICT DO NOTHING`,
      [benchId],
    );
    await q(`INSERT INTO domain_blocks (id, account_id, domain, created_at) VALUES (pg_temp.bench_id(${now}::bigint - 1000, 1), $1, $2, now() AT TIME ZONE 'UTC')`, [
      benchId,
      BLOCKED_DOMAIN,
    ]);
  });

  await timed(log, `notifications: ${sizes.notifications} for the benchmark user`, () => {
    const K = sizes.notifications;
    const nStep = Math.max(1, Math.floor((180 * DAY) / K));
    return q(
      `
      INSERT INTO notifications (id, account_id, type, from_account_id, status_id, emoji, seen, created_at)
      SELECT pg_temp.bench_id(${now}::bigint - (${K} - g.k) * ${nStep}, 500000000 + g.k), $1,
             CASE WHEN g.r < 8 THEN 'favourite' WHEN g.r < 12 THEN 'reblog' WHEN g.r < 16 THEN 'mention' WHEN g.r < 19 THEN 'follow' ELSE 'emoji_reaction' END,
             fa.id,
             CASE WHEN g.r < 12 OR g.r = 19 THEN pg_temp.sid(1000 * (pg_temp.h(g.k, 22) % ${Math.floor(S / 1000)}) + 7)
                  WHEN g.r < 16 THEN pg_temp.sid(pg_temp.public_original(pg_temp.h(g.k, 23))) END,
             CASE WHEN g.r = 19 THEN '👍' END,
             g.k <= ${K} - 100,
             to_timestamp((${now}::bigint - (${K} - g.k) * ${nStep}) / 1000.0) AT TIME ZONE 'UTC'
      FROM (SELECT k, k % 20 AS r FROM generate_series(1::bigint, ${K}) k) g
      JOIN bench_accounts fa ON fa.n = 1 + pg_temp.h(g.k, 21) % ${N}`,
      [benchId],
    );
  });

  await timed(log, `notifications: ${sizes.otherNotifications} for other accounts`, () => {
    const K = sizes.otherNotifications;
    const nStep = Math.max(1, Math.floor((180 * DAY) / Math.max(1, K)));
    return q(`
      INSERT INTO notifications (id, account_id, type, from_account_id, status_id, seen, created_at)
      SELECT pg_temp.bench_id(${now}::bigint - (${K} - g.k) * ${nStep} - 7, 520000000 + g.k), o.id,
             CASE WHEN g.k % 3 = 0 THEN 'follow' ELSE 'favourite' END, fa.id,
             CASE WHEN g.k % 3 = 0 THEN NULL ELSE pg_temp.sid(pg_temp.public_original(pg_temp.h(g.k, 26))) END,
             true, to_timestamp((${now}::bigint - (${K} - g.k) * ${nStep}) / 1000.0) AT TIME ZONE 'UTC'
      FROM generate_series(1::bigint, ${K}) g(k)
      JOIN bench_accounts o ON o.n = 1 + pg_temp.h(g.k, 24) % ${N}
      JOIN bench_accounts fa ON fa.n = 1 + pg_temp.h(g.k, 25) % ${N}`);
  });

  await timed(log, "rebuilding indexes", async () => {
    for (const ix of indexes) await q(ix.indexdef);
  });

  await timed(log, `favourites: ${sizes.favourites} + 2,000 by the benchmark user`, async () => {
    await q(`
      INSERT INTO favourites (id, account_id, status_id, created_at)
      SELECT pg_temp.bench_id(pg_temp.sms(pg_temp.public_original(pg_temp.h(k, 41))) + 1000 + k % 997, 400000000 + k), a.id,
             pg_temp.sid(pg_temp.public_original(pg_temp.h(k, 41))), now() AT TIME ZONE 'UTC'
      FROM generate_series(1, ${sizes.favourites}) k JOIN bench_accounts a ON a.n = 1 + pg_temp.h(k, 42) % ${N}
      ON CONFLICT (account_id, status_id) DO NOTHING`);
    await q(
      `
      INSERT INTO favourites (id, account_id, status_id, created_at)
      SELECT pg_temp.bench_id(pg_temp.sms(i) + 1000, 410000000 + i), $1, pg_temp.sid(i), now() AT TIME ZONE 'UTC'
      FROM (SELECT 10 * (${Math.floor(S / 10)} - k) + 5 AS i FROM generate_series(1, ${Math.min(2000, Math.floor(S / 10) - 3)}) k) g
      ON CONFLICT (account_id, status_id) DO NOTHING`,
      [benchId],
    );
  });

  await timed(log, `other accounts' activity: ${sizes.extras} each of bookmarks, reactions, media, mutes/blocks; a token per local account`, async () => {
    const X = sizes.extras;
    await q(`
      INSERT INTO bookmarks (id, account_id, status_id, created_at)
      SELECT pg_temp.bench_id(pg_temp.sms(pg_temp.public_original(pg_temp.h(k, 51))) + 2000, 300000000 + k), a.id,
             pg_temp.sid(pg_temp.public_original(pg_temp.h(k, 51))), now() AT TIME ZONE 'UTC'
      FROM generate_series(1, ${X}) k JOIN bench_accounts a ON a.n = CASE WHEN k % 100 = 0 THEN 0 ELSE 1 + pg_temp.h(k, 52) % ${N} END
      ON CONFLICT (account_id, status_id) DO NOTHING`);
    await q(`
      INSERT INTO reactions (id, account_id, status_id, emoji, created_at)
      SELECT pg_temp.bench_id(pg_temp.sms(pg_temp.public_original(pg_temp.h(k, 53))) + 3000, 310000000 + k), a.id,
             pg_temp.sid(pg_temp.public_original(pg_temp.h(k, 53))), (ARRAY['👍', '❤️', '😂', '🎉'])[(k % 4 + 1)::int], now() AT TIME ZONE 'UTC'
      FROM generate_series(1, ${X}) k JOIN bench_accounts a ON a.n = 1 + pg_temp.h(k, 54) % ${N}
      ON CONFLICT (account_id, status_id, emoji) DO NOTHING`);
    // an image on one status in twenty (public originals of slot 6)
    await q(
      `
      INSERT INTO media_attachments (id, account_id, status_id, type, mime_type, url, size, description, created_at)
      SELECT pg_temp.bench_id(pg_temp.sms(i) - 5000, 320000000 + i), a.id, pg_temp.sid(i), 'image', 'image/png',
             $1 || '/media/bench-' || i || '.png', 12345, 'an image', to_timestamp((pg_temp.sms(i) - 5000) / 1000.0) AT TIME ZONE 'UTC'
      FROM (SELECT 10 * m + 6 AS i FROM generate_series(3, ${Math.floor(S / 10) - 1}) m WHERE m % 2 = 0 LIMIT ${X}) g
      JOIN bench_accounts a ON a.n = pg_temp.author(g.i)`,
      [base],
    );
    await q(`
      INSERT INTO user_relationships (id, source_id, target_id, type, created_at)
      SELECT pg_temp.bench_id(${now}::bigint - 200000000 + k, 330000000 + k), s.id, t.id,
             (CASE WHEN k % 2 = 0 THEN 'mute' ELSE 'block' END)::"RelationshipType", now() AT TIME ZONE 'UTC'
      FROM generate_series(1, ${X}) k
      JOIN bench_accounts s ON s.n = 1 + pg_temp.h(k, 55) % ${N}
      JOIN bench_accounts t ON t.n = 1 + pg_temp.h(k, 56) % ${N}
      WHERE s.n <> t.n
      ON CONFLICT DO NOTHING`);
    // what authentication looks up: one app, a token per local account (the benchmark user gets its own through the API)
    const { rows } = await q(
      `INSERT INTO oauth_apps (name, client_id, client_secret, redirect_uris, scopes) VALUES ('bench seed', 'bench-seed', 'x', 'urn:ietf:wg:oauth:2.0:oob', '{read}') RETURNING id`,
    );
    await q(`
      INSERT INTO oauth_tokens (token_hash, scopes, app_id, account_id, expires_at)
      SELECT md5('t' || b.n) || md5('u' || b.n), '{read}', ${rows[0].id}, b.id, now() + interval '30 days'
      FROM bench_accounts b WHERE b.local AND b.n > 0`);
  });

  await timed(log, "VACUUM ANALYZE", () => q("VACUUM ANALYZE"));
  await q("SET session_replication_role = DEFAULT");
}
