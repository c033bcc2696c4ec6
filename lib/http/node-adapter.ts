import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/**
 * A fetch-style handler (Request → Response, what Next's route handlers are) behind node:http, for
 * the places that serve the REST handler without Next: scripts/serve-rest.ts and the tests' in-process
 * listener. An unexpected throw is logged under `name` and answered 500.
 */
export function nodeListener(name: string, handle: (request: Request) => Promise<Response>): RequestListener {
  return async (req, res) => {
    try {
      await send(await handle(toRequest(req)), res);
    } catch (error) {
      console.error(`${name}: unexpected error`, error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  };
}

function toRequest(req: IncomingMessage): Request {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: "half",
  } as RequestInit);
}

async function send(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}
