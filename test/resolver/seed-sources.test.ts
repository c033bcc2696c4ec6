import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SEED_DIR, seedDrafts } from "@/lib/catalog/seed-drafts";

/** Ids of a work on a streaming or store platform: each must be cited (issue 35: "never made up"). */
const PLATFORM = /^(spotify|apple|deezer|tidal|youtube|amazon|soundcloud|napster|pandora|yandex):/;

type Source = {
  work: string;
  says: string;
  url?: string;
  repo?: string;
  path?: string;
  commit?: string;
  found?: string;
};
const { sources, unfound } = JSON.parse(fs.readFileSync(path.join(SEED_DIR, "sources.json"), "utf8")) as {
  sources: Record<string, Source>;
  unfound: string[];
};

const platformIds = () =>
  seedDrafts().flatMap((draft) =>
    draft.external_ids
      .filter((id) => PLATFORM.test(id.namespace))
      .map((id) => ({ key: `${id.namespace}:${id.value}`, value: id.value, draft })),
  );

describe("offline seed: every platform id is cited", () => {
  it("every platform id in the seed has a source, and every source names an id the seed holds", () => {
    const ids = platformIds();
    expect(ids.length).toBeGreaterThan(7);
    const uncited = ids.filter((id) => !sources[id.key]).map((id) => `${id.key} (${id.draft.title})`);
    expect(uncited).toEqual([]);
    const held = new Set(ids.map((id) => id.key));
    expect(Object.keys(sources).filter((key) => !held.has(key))).toEqual([]);
  });

  it("each source is a url, a repository file at a commit, or a description of what was found, and quotes the id with its work", () => {
    for (const { key, value, draft } of platformIds()) {
      const source = sources[key] as Source;
      const where = [
        source.url !== undefined && /^https:\/\/\S+$/.test(source.url),
        source.repo !== undefined &&
          /^[\w.-]+\/[\w.-]+$/.test(source.repo) &&
          !!source.path &&
          /^[0-9a-f]{40}$/.test(source.commit ?? ""),
        source.found !== undefined && source.found.length > 20,
      ].filter(Boolean);
      expect(where.length, key).toBe(1);
      expect(source.says, key).toContain(value);
      expect(source.work.startsWith(`${draft.title} — `), key).toBe(true);
    }
  });

  it("a seeded song with no platform id says so: it is listed as unfound, and every listed song indeed has none", () => {
    const songs = seedDrafts().filter((draft) => draft.kind === "track" && draft.domain === "music");
    const name = (draft: (typeof songs)[number]) =>
      `${draft.title} — ${(draft.creators ?? []).map((c) => c.name).join(" & ")}`;
    const bare = songs.filter((draft) => !draft.external_ids.some((id) => PLATFORM.test(id.namespace))).map(name);
    expect([...unfound].sort()).toEqual([...bare].sort());
  });
});
