import { randomBytes } from "node:crypto";
import { createMember } from "../lib/auth/members.ts";
import { createHash } from "node:crypto";
import { approveGrant } from "../lib/auth/oauth/grants.ts";
import { exchangeCode } from "../lib/auth/oauth/tokens.ts";
import { createToken } from "../lib/auth/tokens.ts";
import { asService } from "../lib/db/index.ts";
import { oauthUrls } from "../lib/http/oauth-urls.ts";
import { SCOPES } from "../registry/scopes.ts";
import { settings } from "./config.ts";
import { createTarget, type Target } from "./databases.ts";

/** One member's handles for the load: its tokens and the ids its requests point at. */
export interface BenchMember {
  id: string;
  tokens: string[];
  /** OAuth access tokens for the REST API, as many as `tokens`: the OAuth row of the list. */
  oauthTokens: string[];
  collectionIds: string[];
  /** The items of those collections (the update row changes them). */
  itemIds: string[];
}

export interface Seeded {
  members: BenchMember[];
  growth: BenchMember;
  catalogIds: string[];
  /** A word that occurs in catalog titles and item notes, for the search request. */
  searchTerm: string;
}

/**
 * Title words: a title takes two or three of them, so one word occurs in about 2% of a large
 * catalog, as a common word does in song titles; the search request looks for one of them.
 */
const WORDS = (
  "river midnight golden echo summer paper north velvet signal harbor silver morning winter ocean " +
  "shadow fire dream city heart light rain stone moon wild blue glass thunder garden electric " +
  "broken sweet highway desert violet crimson hollow neon empire falling rising lonely secret " +
  "sugar diamond ghost kingdom island mirror machine forever letter satellite canyon paradise " +
  "fever orbit ember meadow tide lantern compass anchor avalanche comet horizon marble prism " +
  "saffron tundra valley willow zenith arrow blossom cascade dawn dusk feather glacier harvest " +
  "ivory jasmine lagoon mosaic nomad oasis pilgrim quartz raven sierra tempest umbra voyage " +
  "wander yonder cobalt copper crystal daylight eclipse fountain gravity halo indigo jubilee " +
  "karma lullaby monsoon nebula opal phoenix quiet radio saturn solstice tango utopia vertigo"
).split(" ");

/** The shared catalog, bulk-inserted as the service (its trigger fills the search columns). */
export async function seedCatalog(entries: number): Promise<string[]> {
  return asService(async (tx) =>
    (
      await tx.query<{ id: string }>(
        `insert into public.catalog_entries (domain, title, subtitle)
         select 'music',
                initcap(w[1 + (g * 7) % n]) || ' ' || w[1 + (g * 13 + g / n) % n]
                  || case when g % 3 = 0 then ' ' || w[1 + (g * 31 + g / 7) % n] else '' end,
                'Artist ' || (g % 997)
         from generate_series(1, $1::int) g, (select $2::text[] as w, cardinality($2::text[]) as n) v
         returning id`,
        [entries, WORDS],
      )
    ).map((row) => row.id),
  );
}

/**
 * Members and tokens through the same lib functions the service uses; their rows by SQL as the
 * service (bulk inserts), dated a second apart so pages have a real order.
 */
export async function seed(): Promise<Seeded> {
  const run = randomBytes(3).toString("hex");
  const catalogIds = await seedCatalog(settings.catalogEntries);
  const members: BenchMember[] = [];
  for (let i = 0; i < settings.members; i++) members.push(await makeMember(`b${run}_${i}`, 1));
  await addRows(
    members.map((m) => m.id),
    settings.rowsPerMember,
    catalogIds,
  );
  const growth = await makeMember(`g${run}`, 20);
  await analyze();
  for (const member of [...members, growth]) {
    member.collectionIds = await collectionIds(member.id);
    member.itemIds = await itemIds(member.collectionIds);
  }
  return { members, growth, catalogIds, searchTerm: WORDS[1] ?? "midnight" };
}

async function makeMember(handle: string, tokenCount: number): Promise<BenchMember> {
  const member = await createMember({ email: `${handle}@bench.example`, handle });
  const tokens: string[] = [];
  for (let t = 0; t < tokenCount; t++) {
    tokens.push((await createToken({ memberId: member.id, name: `bench ${t}`, scopes: SCOPES })).token);
  }
  const oauthTokens: string[] = [];
  for (let t = 0; t < tokenCount; t++) oauthTokens.push(await oauthToken(member.id));
  return { id: member.id, tokens, oauthTokens, collectionIds: [], itemIds: [] };
}

/**
 * The servers the bench starts take their public origin from this process (SITE_URL), so the
 * audience of the OAuth tokens made here is theirs: a fixed one, set before any server starts.
 */
process.env.SITE_URL ??= "http://bench.localhost";

/** An OAuth access token for /api/v1 with every scope, through the same functions consent and the token endpoint use. */
async function oauthToken(memberId: string): Promise<string> {
  const verifier = randomBytes(32).toString("base64url");
  const redirectUri = "http://127.0.0.1/bench";
  const client = { id: "pdsc_bench", kind: "registered" as const, name: "bench", redirectUris: [redirectUri] };
  const resource = oauthUrls().resource("api");
  const { code } = await approveGrant({
    memberId,
    client,
    redirectUri,
    resource,
    scopes: SCOPES,
    limits: {},
    codeChallenge: createHash("sha256").update(verifier).digest("base64url"),
  });
  return (await exchangeCode({ code, clientId: client.id, redirectUri, codeVerifier: verifier, resource }))
    .access_token;
}

/** Adds `count` collections and `count` items (one per new collection) to each owner. */
export async function addRows(ownerIds: string[], count: number, catalogIds: string[]): Promise<void> {
  if (count <= 0) return;
  await asService(async (tx) => {
    await tx.query(
      `with made as (
         insert into public.collections (owner_id, name, type, visibility, created_at)
         select o, 'Collection ' || g, 'music', case when g % 10 = 0 then 'public' else 'private' end,
                now() - make_interval(secs => g)
         from unnest($1::uuid[]) o, generate_series(1, $2::int) g
         returning id, owner_id, created_at)
       insert into public.items (owner_id, collection_id, song_id, note, created_at)
       select owner_id, id, ($3::uuid[])[1 + (row_number() over () % cardinality($3::uuid[]))::int],
              'Heard at midnight', created_at
       from made`,
      [ownerIds, count, catalogIds],
    );
  });
}

/**
 * Fresh statistics after a bulk load, as the server's autovacuum would gather within a minute
 * (PGlite has no autovacuum); without them the planner sorts a member's whole table per page.
 */
export async function analyze(): Promise<void> {
  await asService((tx) => tx.query("analyze"));
}

async function collectionIds(ownerId: string): Promise<string[]> {
  const rows = await asService((tx) =>
    tx.query<{ id: string }>(
      "select id from public.collections where owner_id = $1 order by created_at desc, id desc limit 50",
      [ownerId],
    ),
  );
  return rows.map((row) => row.id);
}

async function itemIds(collectionIds: string[]): Promise<string[]> {
  const rows = await asService((tx) =>
    tx.query<{ id: string }>("select id from public.items where collection_id = any($1::uuid[]) order by id", [
      collectionIds,
    ]),
  );
  return rows.map((row) => row.id);
}

/** Exact rows per table of the member data and the private account tables. */
export async function tableSizes(): Promise<Record<string, number>> {
  return asService(async (tx) => {
    const tables = await tx.query<{ name: string }>(
      `select format('%I.%I', schemaname, tablename) as name from pg_tables
       where schemaname in ('public', 'app_private') order by schemaname desc, tablename`,
    );
    const sizes: Record<string, number> = {};
    for (const { name } of tables) {
      const [row] = await tx.query<{ n: number }>(`select count(*)::int as n from ${name}`);
      sizes[name] = row?.n ?? 0;
    }
    return sizes;
  });
}

/**
 * The first of BENCH_DATABASES, created and seeded, then closed for the servers that open it (the
 * A/B scripts); dropped again if seeding fails. The caller drops it at the end.
 */
export async function seededTarget(): Promise<{ name: string; target: Target; seeded: Seeded }> {
  const name = settings.databases[0] ?? "postgres";
  const target = await createTarget(name);
  try {
    await target.open();
    const seeded = await seed();
    await target.close();
    return { name, target, seeded };
  } catch (error) {
    await target.drop();
    throw error;
  }
}
