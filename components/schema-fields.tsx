import type { FormField } from "@/lib/web/schema-form";

/** Inputs for a tool's fields; each label carries the field's name so it can be found by it. */
export function SchemaFields({ fields }: { fields: readonly FormField[] }) {
  if (!fields.length) return <p className="muted">This tool takes no input.</p>;
  return (
    <>
      {fields.map((field) => {
        const hintId = `field-${field.name}-hint`;
        const common = { name: field.name, id: `field-${field.name}`, "aria-describedby": hintId };
        return (
          <div key={field.name} className="stack-tight">
            <label htmlFor={common.id}>
              <span>
                <code>{field.name}</code>
                {field.required && <span className="required"> required</span>}
              </span>
            </label>
            {field.kind === "enum" || field.kind === "boolean" ? (
              <select {...common} defaultValue="">
                <option value="">{field.required ? "Choose…" : "(leave out)"}</option>
                {(field.kind === "boolean" ? ["true", "false"] : field.options).map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            ) : field.kind === "json" ? (
              <textarea {...common} rows={3} placeholder="JSON" spellCheck={false} />
            ) : (
              <input
                {...common}
                type={field.kind === "number" ? "number" : "text"}
                step={field.kind === "number" ? "any" : undefined}
                placeholder={field.format ?? ""}
                required={field.required}
                autoComplete="off"
              />
            )}
            <span className="hint" id={hintId}>
              {field.description}
              {field.nullable && " May be null."}
            </span>
          </div>
        );
      })}
    </>
  );
}
