import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as invokeRoute from "@/app/api/agent/invoke/route";
import * as toolsRoute from "@/app/api/agent/tools/route";
import * as restRoute from "@/app/api/v1/[...path]/route";
import { corsPolicy } from "@/lib/http/cors";
import { routes } from "@/lib/surfaces/rest-routes";
import { api } from "../support/api";
import { makeMember } from "../support/factories";

const APP = "https://app.example.org";
const saved = process.env.CORS_ORIGINS;

async function options(path: string[], headers: Record<string, string> = {}): Promise<Response> {
  const request = new Request(`http://localhost/api/v1/${path.join("/")}`, { method: "OPTIONS", headers });
  return restRoute.OPTIONS(request, { params: Promise.resolve({ path }) });
}

/** The registry's verbs for each distinct path pattern, with a concrete id in every `{param}`. */
function registryPaths(): Map<string, { path: string[]; verbs: Set<string> }> {
  const byPattern = new Map<string, { path: string[]; verbs: Set<string> }>();
  for (const route of routes) {
    const key = route.segments.join("/");
    const entry = byPattern.get(key) ?? {
      path: route.segments.map((segment) => (segment.startsWith("{") ? randomUUID() : segment)),
      verbs: new Set<string>(),
    };
    entry.verbs.add(route.method);
    byPattern.set(key, entry);
  }
  return byPattern;
}

const split = (value: string | null) =>
  new Set(
    (value ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean),
  );

describe("CORS on /api/v1 and /api/agent", () => {
  beforeEach(() => {
    process.env.CORS_ORIGINS = `${APP}, http://localhost:5173`;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.CORS_ORIGINS;
    else process.env.CORS_ORIGINS = saved;
  });

  it("an allowed origin may read the answer and its headers, never with credentials", async () => {
    const member = await makeMember({ scopes: ["collections:read"] });
    const response = await api("GET", "/collections", { token: member.token, headers: { origin: APP } });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(APP);
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    expect(split(response.headers.get("access-control-expose-headers"))).toEqual(
      new Set([
        "RateLimit",
        "RateLimit-Policy",
        "Retry-After",
        "Link",
        "Idempotent-Replayed",
        "Request-Id",
        "WWW-Authenticate",
      ]),
    );
    expect(response.headers.get("vary")).toContain("Origin");
    // Problems carry them too, so a browser app can read a 401's body.
    const refused = await api("GET", "/collections", { headers: { origin: APP } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe(APP);
  });

  it("a refused origin gets no Access-Control header, on answers and on preflights", async () => {
    const member = await makeMember({ scopes: ["collections:read"] });
    const response = await api("GET", "/collections", {
      token: member.token,
      headers: { origin: "https://evil.example" },
    });
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("vary")).toContain("Origin");
    const preflight = await options(["collections"], {
      origin: "https://evil.example",
      "access-control-request-method": "POST",
    });
    expect(preflight.status).toBe(204);
    expect([...preflight.headers.keys()].filter((name) => name.startsWith("access-control-"))).toEqual([]);
  });

  it("no origin is allowed by default", async () => {
    delete process.env.CORS_ORIGINS;
    const preflight = await options(["collections"], { origin: APP, "access-control-request-method": "GET" });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("`*` allows any origin, still without credentials", async () => {
    process.env.CORS_ORIGINS = "*";
    const preflight = await options(["todos"], {
      origin: "https://any.example",
      "access-control-request-method": "PATCH",
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("a preflight answers exactly the registry's verbs of each path, and the allowed request headers", async () => {
    for (const [pattern, { path, verbs }] of registryPaths()) {
      const response = await options(path, {
        origin: APP,
        "access-control-request-method": [...verbs][0] ?? "GET",
        "access-control-request-headers": "authorization, content-type, idempotency-key",
      });
      expect(response.status, pattern).toBe(204);
      expect(split(response.headers.get("allow")), pattern).toEqual(verbs);
      expect(split(response.headers.get("access-control-allow-methods")), pattern).toEqual(verbs);
      expect(split(response.headers.get("access-control-allow-headers"))).toEqual(
        new Set(["Authorization", "Content-Type", "Idempotency-Key"]),
      );
      expect(response.headers.get("access-control-allow-origin")).toBe(APP);
      expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });

  it("OPTIONS without Origin answers 204 with the registry's Allow (no PUT unless declared)", async () => {
    const response = await options(["profile"]);
    expect(response.status).toBe(204);
    expect(split(response.headers.get("allow"))).toEqual(new Set(["GET", "PATCH"]));
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("OPTIONS on a path with no route is 404 problem+json", async () => {
    const response = await options(["no-such-thing"], { origin: APP, "access-control-request-method": "GET" });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    expect(response.headers.get("access-control-allow-methods")).toBeNull();
  });

  it("the assistant's routes have their own preflights and CORS headers", async () => {
    const headers = { origin: APP, "access-control-request-method": "POST" };
    const invoke = await invokeRoute.OPTIONS(
      new Request("http://localhost/api/agent/invoke", { method: "OPTIONS", headers }),
    );
    expect(invoke.headers.get("access-control-allow-methods")).toBe("POST");
    const tools = await toolsRoute.OPTIONS(
      new Request("http://localhost/api/agent/tools", { method: "OPTIONS", headers }),
    );
    expect(tools.headers.get("allow")).toBe("GET");
    const member = await makeMember({ scopes: ["collections:read"] });
    const catalog = await toolsRoute.GET(
      new Request("http://localhost/api/agent/tools", {
        headers: { origin: APP, authorization: `Bearer ${member.token}` },
      }),
    );
    expect(catalog.status).toBe(200);
    expect(catalog.headers.get("access-control-allow-origin")).toBe(APP);
  });

  it("CORS_ORIGINS refuses anything that is not an exact origin", () => {
    expect(() => corsPolicy("https://app.example.org/path")).toThrow(/origin only/);
    expect(() => corsPolicy("app.example.org")).toThrow(/not an origin/);
    expect(corsPolicy("https://a.example, *").any).toBe(true);
  });
});
