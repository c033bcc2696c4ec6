import { constraints, fieldRows, type Json, refName, text, typeLabel } from "@/lib/web/openapi-view";
import { inline } from "./markdown";

/** One row per property: name, type, required, what it means and its limits. */
export function SchemaTable({ doc, schema, caption }: { doc: Json; schema: Json; caption?: string }) {
  const rows = fieldRows(doc, schema);
  if (!rows.length) return <p className="muted">No fields.</p>;
  return (
    <div className="table-wrap">
      <table className="fields">
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const ref = refName(row.schema);
            const limits = constraints(row.schema);
            return (
              <tr key={row.name}>
                <th scope="row">
                  <code>{row.name}</code>
                  {row.required && <span className="required"> required</span>}
                </th>
                <td>
                  {ref ? <a href={`#schema-${ref}`}>{ref}</a> : <code>{typeLabel(row.schema)}</code>}
                </td>
                <td>
                  {inline(text(row.schema.description))}
                  {limits.length > 0 && <span className="hint">{limits.join(" · ")}</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
