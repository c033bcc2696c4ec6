// The floor app's two routes (the very GET functions of bench/floor-app) served by node:http with nothing of
// Next in between: how much of a request's cost is Next's pipeline (seventh pass, §3). Bench-only.
//   PORT=… DATABASE_URL=… node bench/plain-server.ts
import http from "node:http";
import { GET as naive } from "./floor-app/app/naive/route.js";
import { GET as floor } from "./floor-app/app/static/route.js";

const routes: Record<string, (request: Request) => Response | Promise<Response>> = { "/naive": naive, "/static": floor };

http
  .createServer(async (req, res) => {
    const route = routes[req.url ?? ""];
    if (!route) return res.writeHead(404).end();
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const response = await route(new Request(`http://${req.headers.host}${req.url}`, { headers }));
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, {
      "content-type": response.headers.get("content-type") ?? "application/json",
      "content-length": body.length,
    });
    res.end(body);
  })
  .listen(Number(process.env.PORT), "127.0.0.1");
