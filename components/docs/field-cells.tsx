import { constraints, type Json, text } from "@/lib/web/openapi-view";
import { inline } from "./markdown";

/** The first cell of a field or parameter row: its name, and whether it must be sent. */
export function NameCell({ name, required }: { name: string; required: boolean }) {
  return (
    <th scope="row">
      <code>{name}</code>
      {required && <span className="required"> required</span>}
    </th>
  );
}

/** What a field or parameter means, with its limits (length, range, pattern) underneath. */
export function DescriptionCell({ description, schema }: { description: unknown; schema: Json }) {
  const limits = constraints(schema);
  return (
    <td>
      {inline(text(description))}
      {limits.length > 0 && <span className="hint">{limits.join(" · ")}</span>}
    </td>
  );
}
