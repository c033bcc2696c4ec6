import { describe, expect, it } from "vitest";
import { asService } from "@/lib/db";
import { MAX_BODY_BYTES } from "@/registry/limits";
import { api } from "../support/api";
import { makeMember } from "../support/factories";

/** What the member owns and the service keeps for them: unchanged by every refused body. */
async function footprint(memberId: string) {
  const [row] = await asService((tx) =>
    tx.query<{ collections: number; todos: number; keys: number }>(
      `select (select count(*)::int from public.collections where owner_id = $1) as collections,
              (select count(*)::int from public.todos where owner_id = $1) as todos,
              (select count(*)::int from app_private.idempotency_keys where member_id = $1) as keys`,
      [memberId],
    ),
  );
  return row;
}

const postRaw = (token: string, rawBody: string | Uint8Array, headers: Record<string, string>) =>
  api("POST", "/collections", {
    token,
    rawBody: rawBody as string,
    headers: { "idempotency-key": "body-test", ...headers },
  });

describe("request bodies", () => {
  it("refuses a body over 1 MiB with 413, whether declared or streamed, and writes nothing", async () => {
    const ada = await makeMember();
    const before = await footprint(ada.id);
    const big = JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES), type: "music" });
    // Streamed: no Content-Length, counted while reading.
    const streamed = await postRaw(ada.token, big, { "content-type": "application/json" });
    expect(streamed.status).toBe(413);
    expect(streamed.body).toMatchObject({ code: "payload_too_large", status: 413 });
    expect(streamed.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    // Declared: refused before reading.
    const declared = await postRaw(ada.token, "{}", {
      "content-type": "application/json",
      "content-length": String(MAX_BODY_BYTES + 1),
    });
    expect(declared.status).toBe(413);
    expect(await footprint(ada.id)).toEqual(before);
  });

  it("reads a body of exactly 1 MiB (then validation decides)", async () => {
    const ada = await makeMember();
    const shell = JSON.stringify({ name: "", type: "music" });
    const exact = JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES - shell.length), type: "music" });
    expect(Buffer.byteLength(exact)).toBe(MAX_BODY_BYTES);
    const response = await postRaw(ada.token, exact, { "content-type": "application/json" });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe("invalid_request");
  });

  it("refuses other content types with 415 and writes nothing", async () => {
    const ada = await makeMember();
    const before = await footprint(ada.id);
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""]) {
      const response = await postRaw(ada.token, '{"name":"A","type":"music"}', type ? { "content-type": type } : {});
      expect(response.status, type).toBe(415);
      expect(response.body.code).toBe("unsupported_media_type");
      expect(response.headers.get("accept-post")).toBe("application/json");
    }
    // JSON with parameters, and +json types, are JSON.
    const charset = await postRaw(ada.token, '{"name":"A","type":"music"}', {
      "content-type": "application/json; charset=utf-8",
      "idempotency-key": "charset",
    });
    expect(charset.status).toBe(201);
    expect((await footprint(ada.id))?.collections).toBe((before?.collections ?? 0) + 1);
  });

  it("refuses a JSON body declared in a charset other than UTF-8 with 415 (RFC 8259), and writes nothing", async () => {
    const ada = await makeMember();
    const before = await footprint(ada.id);
    // "café" in latin1 bytes would have been read as UTF-8: refused by its declared charset, not its bytes.
    for (const type of [
      "application/json; charset=latin1",
      "application/json; charset=ISO-8859-1",
      "application/json;charset=utf-16",
      'application/json; charset="windows-1252"',
      "application/merge-patch+json; charset=us-ascii",
      "application/json; charset=utf-8; charset=latin1",
      "application/json; charset=",
    ]) {
      const response = await postRaw(ada.token, '{"name":"A","type":"music"}', { "content-type": type });
      expect(response.status, type).toBe(415);
      expect(response.body.code, type).toBe("unsupported_media_type");
      expect(response.body.detail, type).toMatch(/UTF-8/);
      expect(response.headers.get("accept-post"), type).toBe("application/json");
    }
    expect(await footprint(ada.id)).toEqual(before);
    // UTF-8 in any spelling of its name, quoted or not, and no charset at all, stay accepted.
    for (const [i, type] of [
      "application/json; charset=UTF-8",
      "application/json;charset=utf-8",
      'application/json; charset="Utf-8"',
      "application/json; charset=utf8",
      'application/json; foo="a;charset=latin1"; charset=utf-8',
      "application/json",
      "application/vnd.example+json",
    ].entries()) {
      const response = await postRaw(ada.token, '{"name":"Caf\u00e9","type":"music"}', {
        "content-type": type,
        "idempotency-key": `utf8-${i}`,
      });
      expect(response.status, type).toBe(201);
    }
  });

  it("answers 400 for truncated JSON and for bytes that are not UTF-8, and writes nothing", async () => {
    const ada = await makeMember();
    const before = await footprint(ada.id);
    const json = { "content-type": "application/json" };
    for (const raw of ['{"name": "Road trip", "type": "mus', "{", '{"name": "A"} trailing']) {
      const response = await postRaw(ada.token, raw, json);
      expect(response.status, raw).toBe(400);
      expect(response.body).toMatchObject({ code: "malformed_request", status: 400 });
    }
    const latin1 = new Uint8Array([...Buffer.from('{"name": "caf'), 0xe9, ...Buffer.from('", "type": "music"}')]);
    const invalid = await postRaw(ada.token, latin1, json);
    expect(invalid.status).toBe(400);
    expect(invalid.body.detail).toMatch(/UTF-8/);
    const todo = await api("POST", "/todos", { token: ada.token, rawBody: '{"title": "t"', headers: json });
    expect(todo.status).toBe(400);
    expect(await footprint(ada.id)).toEqual(before);
  });

  it("treats an empty body as an empty object (validation then names what is missing)", async () => {
    const ada = await makeMember();
    const empty = await api("POST", "/collections", { token: ada.token, rawBody: "" });
    expect(empty.status).toBe(422);
    expect(empty.body.code).toBe("invalid_request");
  });
});
