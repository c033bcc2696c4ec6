import { fieldRows, type Json, refName, typeLabel } from "@/lib/web/openapi-view";
import { DescriptionCell, NameCell } from "./field-cells";

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
            return (
              <tr key={row.name}>
                <NameCell name={row.name} required={row.required} />
                <td>{ref ? <a href={`#schema-${ref}`}>{ref}</a> : <code>{typeLabel(row.schema)}</code>}</td>
                <DescriptionCell description={row.schema.description} schema={row.schema} />
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
