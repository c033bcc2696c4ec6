import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { closeDb, getDb } from "@/lib/db";
import { api } from "../support/api";
import { makeMember } from "../support/factories";

/**
 * A "server restart": the process's database handle is closed and opened again. On PGlite the
 * data lives in a temporary directory for this test (memory would not survive); on the server
 * pass it is the same database.
 */
describe("Idempotency-Key across a restart", () => {
  it("replays the stored response after the database is closed and reopened", async () => {
    const savedDir = process.env.PGLITE_DIR;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pds-idem-"));
    const onPglite = !process.env.DATABASE_URL;
    try {
      if (onPglite) {
        await closeDb();
        process.env.PGLITE_DIR = dir;
      }
      const ada = await makeMember();
      const key = randomUUID();
      const body = { title: "Survives restarts" };
      const first = await api("POST", "/todos", { token: ada.token, body, headers: { "idempotency-key": key } });
      expect(first.status).toBe(201);

      await closeDb();
      await getDb();

      const replay = await api("POST", "/todos", { token: ada.token, body, headers: { "idempotency-key": key } });
      expect(replay.status).toBe(201);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body).toEqual(first.body);
      const list = await api("GET", "/todos", { token: ada.token });
      expect(list.body.data).toHaveLength(1);
    } finally {
      if (onPglite) {
        await closeDb();
        process.env.PGLITE_DIR = savedDir;
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }, 120_000);
});
