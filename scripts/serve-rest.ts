// Serves the REST surface (/api/v1/...) with node:http and nothing else: the same handler `next
// start` runs, without a build. For tests that need separate server processes (rate limits shared
// through Redis) and for benchmarks that want the pipeline's cost without Next's routing.
//   PORT=0 node scripts/serve-rest.ts   → prints "listening http://127.0.0.1:<port>" once ready.
import http from "node:http";
import { Readable } from "node:stream";
import { closeDb } from "../lib/db/index.ts";
import { decodePathSegments, malformedPathResponse } from "../lib/http/path-segments.ts";
import { handleRest } from "../lib/surfaces/rest.ts";

const PREFIX = "/api/v1/";

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
    }
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const request = new Request(url, {
      method: req.method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
      duplex: "half",
    } as RequestInit);
    const path = url.pathname.startsWith(PREFIX) ? decodePathSegments(url.pathname.slice(PREFIX.length)) : null;
    const response = path
      ? await handleRest(request, path)
      : (malformedPathResponse(url.pathname, headers) ??
        new Response(JSON.stringify({ error: "only /api/v1 is served here" }), { status: 404 }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    console.error("serve-rest: unexpected error", error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : process.env.PORT;
  console.log(`listening http://127.0.0.1:${port}`);
});

const stop = () => server.close(() => void closeDb().finally(() => process.exit(0)));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
