import { describe, expect, it } from "vitest";
import { decodePathSegments, malformedPathResponse } from "@/lib/http/path-segments";

// Next (before proxy.ts) and serve-rest answered 500 for these: decoding threw past every handler.
describe("paths that are not valid percent-encoded UTF-8", () => {
  it.each([
    "/api/v1/%",
    "/api/v1/todos/%zz",
    "/api/v1/todos/%E0%A4%A",
    "/api/v1/todos/%ED%A0%80",
    "/api/v1/%C0%AF",
  ])("%s is 400 malformed_request", async (path) => {
    expect(decodePathSegments(path)).toBeNull();
    const response = malformedPathResponse(path, new Headers());
    expect(response?.status).toBe(400);
    expect(response?.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await response?.json()).toMatchObject({ code: "malformed_request", status: 400 });
  });

  it("decodes what is valid, encoded slashes and all", () => {
    expect(decodePathSegments("/api/v1/todos/a%2Fb/%E2%82%AC")).toEqual(["api", "v1", "todos", "a/b", "€"]);
    expect(malformedPathResponse("/api/v1/todos", new Headers())).toBeUndefined();
  });
});
