import { memberColumns } from "../../registry/events.ts";
import {
  EXPORT_SECTIONS,
  EXPORT_TOKENS_SCOPE,
  EXPORT_UPLOAD_SCOPES,
  type ExportSection,
} from "../../registry/export-sections.ts";
import type { Scope } from "../../registry/scopes.ts";
import { EXPORT_LINK_LIFETIME_SECONDS } from "../../registry/operations/export.ts";
import type { ResourceSpec, UploadPurpose } from "../../registry/define.ts";
import { capabilityByTool } from "../../registry/capabilities.ts";
import { resources } from "../../registry/index.ts";
import { listTokens } from "../auth/tokens.ts";
import { asService, type Queryable } from "../db/index.ts";
import type { ToolHandler, VerbContext } from "./context.ts";
import { toRecord } from "./record.ts";
import { storageDriver } from "./uploads/driver.ts";

type Row = { r: Record<string, unknown> };

interface UploadRow {
  key: string;
  purpose: UploadPurpose;
  content_type: string;
  size: number;
  created_at: string;
}

/** The parts of the export the scopes allow, and the rest (the manifest's omitted). */
function sectionsFor(scopes: ReadonlySet<Scope>) {
  const allowed = (section: ExportSection) => scopes.has(section.scope);
  return {
    included: EXPORT_SECTIONS.filter(allowed),
    omitted: EXPORT_SECTIONS.filter((section) => !allowed(section)),
    purposes: (Object.keys(EXPORT_UPLOAD_SCOPES) as UploadPurpose[]).filter((p) => scopes.has(EXPORT_UPLOAD_SCOPES[p])),
  };
}

/**
 * Uploads and tokens live in app_private, which members cannot read at all; the service reads
 * them for this member only (and only what the scopes allow), before the member transaction, and
 * signs the download links there (an S3 presign is local computation, but it stays out of the
 * transaction all the same).
 */
async function prepareExport({ memberId, scopes }: { memberId: string; scopes: ReadonlySet<Scope> }) {
  const { purposes } = sectionsFor(scopes);
  const uploads = purposes.length
    ? await asService((tx) =>
        tx.query<UploadRow>(
          `select key, purpose, content_type, size::int as size, to_jsonb(created_at) #>> '{}' as created_at
           from app_private.uploads where owner_id = $1 and status = 'complete' and purpose = any($2::text[])
           order by created_at, key`,
          [memberId, purposes],
        ),
      )
    : [];
  const expiresAt = new Date((Math.floor(Date.now() / 1000) + EXPORT_LINK_LIFETIME_SECONDS) * 1000);
  const driver = storageDriver();
  const media = await Promise.all(
    uploads.map(async (u) => ({
      ...u,
      url: await driver.presignGet(u.key, expiresAt),
      url_expires_at: expiresAt.toISOString(),
    })),
  );
  // Metadata only: the secret was never stored and the hash is not the member's to keep.
  const tokenRows = scopes.has(EXPORT_TOKENS_SCOPE) ? await listTokens(memberId) : [];
  const tokens = tokenRows.map(({ id, name, last4, scopes, created_at, expires_at, revoked_at, last_used_at }) => ({
    id,
    name,
    display: `pds_…${last4}`,
    scopes,
    created_at,
    expires_at,
    revoked_at,
    last_used_at,
  }));
  return { media, tokens };
}

async function ownRows(tx: Queryable, resource: ResourceSpec, memberId: string): Promise<Record<string, unknown>[]> {
  const where = memberColumns(resource)
    .map((c) => `t.${c} = $1`)
    .join(" or ");
  const rows = await tx.query<Row>(
    `select to_jsonb(t) as r from ${resource.table} t where ${where} order by t.created_at, t.id`,
    [memberId],
  );
  // A secret is shown once, at create or rotation, never again (nor in an export).
  const shownOnce = Object.keys(resource.fields).filter((name) => resource.fields[name]?.shownOnce);
  return rows.map((row) => {
    const record = toRecord(resource, row.r);
    for (const name of shownOnce) delete record[name];
    return record;
  });
}

/**
 * Everything the member owns that the token's read scopes allow, read in one member transaction
 * under RLS (one consistent snapshot): what RLS would hide is never read, and each query also
 * names the member so a row another member shared (a public collection) is not taken for the
 * member's own. The manifest says what the scopes left out.
 */
export const exportAll: ToolHandler<"export"> = async (ctx) => {
  const { tx, memberId } = ctx;
  const { included, omitted } = sectionsFor(ctx.scopes);
  const wanted = new Set(included.map((section) => section.resource));
  const prepared = ctx.prepared as Awaited<ReturnType<typeof prepareExport>>;
  const files: Record<string, unknown> = {};
  const documents: { file: string; resource: string; count: number }[] = [];
  const add = (resource: string, data: unknown[] | Record<string, unknown>) => {
    const file = `${resource}.json`;
    files[file] = data;
    documents.push({ file, resource, count: Array.isArray(data) ? data.length : 1 });
  };
  const passthrough = { ...ctx, input: {} } as unknown as VerbContext<Record<string, never>>;
  // Loaded when an export runs: handlers.ts imports this module for its own map.
  const { handlerFor } = await import("./handlers.ts");
  for (const resource of resources) {
    if (!wanted.has(resource.name)) continue;
    if (resource.singleton) {
      // A singleton is read through its own read tool (the profile's get, the collection types' list).
      const verb = resource.verbs.includes("get") ? "get" : "list";
      const capability = capabilityByTool.get(`${resource.toolPrefix}_${verb}`);
      if (!capability) throw new Error(`${resource.name} has no ${verb} to export with`);
      const read = handlerFor(capability) as unknown as (ctx: VerbContext<Record<string, never>>) => Promise<unknown>;
      const answer = await read(passthrough);
      add(resource.name, verb === "list" ? (answer as { data: unknown[] }).data : (answer as Record<string, unknown>));
      continue;
    }
    const rows = await ownRows(tx, resource, memberId);
    const children = resource.exportChildren;
    if (children) {
      const member = memberColumns(resource)[0];
      const childRows = await tx.query<Row>(
        `select to_jsonb(c) - '${member}' as r from ${children.table} c where c.${member} = $1 order by ${children.orderBy
          .split(",")
          .map((column) => `c.${column.trim()}`)
          .join(", ")}`,
        [memberId],
      );
      for (const record of rows) {
        record[children.key] = childRows.map((c) => c.r).filter((c) => c[children.foreignKey] === record.id);
      }
    }
    add(resource.name, rows);
  }
  if (wanted.has("tokens")) add("tokens", prepared.tokens);
  if (wanted.has("uploads"))
    add(
      "uploads",
      prepared.media.map(({ url: _url, url_expires_at: _expires, ...upload }) => upload),
    );
  const [now] = await tx.query<{ now: string }>("select to_jsonb(now()) #>> '{}' as now");
  files["manifest.json"] = {
    format: "pds-export/1",
    exported_at: now?.now ?? new Date().toISOString(),
    member_id: memberId,
    documents,
    media: prepared.media,
    omitted: omitted.map(({ file, resource, scope, purpose }) => ({
      file,
      resource,
      scope,
      ...(purpose ? { purpose } : {}),
    })),
  };
  return { files: { "manifest.json": files["manifest.json"], ...files } };
};
exportAll.prepare = prepareExport;
