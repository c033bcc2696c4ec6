// npm run openapi:check — writes the OpenAPI document to reports/openapi.json, then validates it
// (@readme/openapi-parser), lints it (@redocly/cli, redocly.yaml) and generates types from it
// (openapi-typescript). Exits non-zero when any of the three complains.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { validate } from "@readme/openapi-parser";
import { buildOpenApiDocument } from "../lib/surfaces/openapi.ts";

export interface CheckResult {
  name: string;
  ok: boolean;
  output: string;
}

export async function checkOpenApi(root = process.cwd()): Promise<CheckResult[]> {
  const reports = path.join(root, "reports");
  fs.mkdirSync(reports, { recursive: true });
  const file = path.join(reports, "openapi.json");
  fs.writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
  const results: CheckResult[] = [];
  const validation = await validate(file);
  results.push({
    name: "@readme/openapi-parser",
    ok: validation.valid,
    output: validation.valid ? "valid" : JSON.stringify(validation.errors, null, 2),
  });
  const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
  const run = (name: string, command: string, args: string[], clean: (output: string) => boolean = () => true) => {
    const child = spawnSync(command, args, {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, REDOCLY_TELEMETRY: "off" },
    });
    const output = `${child.stdout}${child.stderr}`.trim();
    results.push({ name, ok: child.status === 0 && clean(output), output });
  };
  // Lint clean means no warnings either: redocly exits 0 on warnings, so its summary is read too.
  run(
    "@redocly/cli lint",
    bin("redocly"),
    ["lint", path.relative(root, file), "--config", "redocly.yaml", "--format", "stylish"],
    (output) =>
      !/\bwarnings?\b/.test(output.replace(/Explicitly ignored \d+ problems?\./, "")) && !/\berror\b/.test(output),
  );
  run("openapi-typescript", bin("openapi-typescript"), [file, "--output", path.join(reports, "openapi-types.d.ts")]);
  return results;
}

if (import.meta.main) {
  const results = await checkOpenApi();
  for (const result of results)
    console.log(`${result.ok ? "ok  " : "FAIL"} ${result.name}\n${result.ok ? "" : `${result.output}\n`}`);
  process.exit(results.every((result) => result.ok) ? 0 : 1);
}
