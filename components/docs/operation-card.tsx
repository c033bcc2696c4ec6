import {
  asList,
  curlExample,
  errorResponses,
  type Json,
  jsonBody,
  type OperationView,
  parameters,
  refName,
  successResponse,
  text,
  typeLabel,
} from "@/lib/web/openapi-view";
import { DescriptionCell, NameCell } from "./field-cells";
import { inline, Markdown } from "./markdown";
import { SchemaTable } from "./schema-table";

/** One operation: what it does, who may call it, what it takes and answers, and how to call it. */
export function OperationCard({ doc, view, siteUrl }: { doc: Json; view: OperationView; siteUrl: string }) {
  const { op } = view;
  const id = text(op.operationId) || `${view.method}-${view.path}`;
  const params = parameters(doc, op).filter((p) => p.in === "path" || p.in === "query");
  const headers = parameters(doc, op).map((p) => text(p.name));
  const body = jsonBody(doc, op);
  const success = successResponse(op);
  const scopes = asList(op["x-scopes"]).map(text);
  const paged = headers.includes("after");
  const successRef = success ? refName(success.schema) : "";
  return (
    <article className="operation" id={`op-${id}`} aria-labelledby={`op-${id}-title`}>
      <h4 id={`op-${id}-title`}>
        <span className={`method method-${view.method}`}>{view.method.toUpperCase()}</span>
        <code>
          {view.base}
          {view.path}
        </code>
        <span>{text(op.summary)}</span>
      </h4>
      <ul className="facts">
        <li>
          Scope: {scopes.length ? scopes.map((scope) => <code key={scope}>{scope}</code>) : <span>none (public)</span>}
        </li>
        {op["x-tool"] !== undefined && (
          <li>
            Tool: <a href={`#tool-${text(op["x-tool"])}`}>{text(op["x-tool"])}</a>
          </li>
        )}
        {headers.includes("Idempotency-Key") && (
          <li>
            <a href="#limits">Idempotency-Key</a> accepted
          </li>
        )}
        {paged && (
          <li>
            <a href="#lists">Paginated</a>: <code>after</code>, <code>limit</code>
          </li>
        )}
        {"429" in ((op.responses ?? {}) as Json) && (
          <li>
            <a href="#limits">Rate-limited</a> per token
          </li>
        )}
        {success && <li>Success: {success.status}</li>}
      </ul>
      <Markdown source={text(op.description)} headingLevel={4} />
      {params.length > 0 && (
        <>
          <h5>Parameters</h5>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">In</th>
                  <th scope="col">Type</th>
                  <th scope="col">Description</th>
                </tr>
              </thead>
              <tbody>
                {params.map((p) => {
                  const schema = (p.schema ?? {}) as Json;
                  return (
                    <tr key={`${text(p.in)}-${text(p.name)}`}>
                      <NameCell name={text(p.name)} required={p.required === true} />
                      <td>{text(p.in)}</td>
                      <td>
                        <code>{typeLabel(schema)}</code>
                      </td>
                      <DescriptionCell description={p.description} schema={schema} />
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
      {body && (
        <>
          <h5>
            Request body{refName(body.schema) && <span className="muted"> ({refName(body.schema)})</span>}
          </h5>
          <SchemaTable doc={doc} schema={body.schema} caption={`Request body of ${id}`} />
        </>
      )}
      {success && (
        <p>
          Answers <strong>{success.status}</strong>
          {successRef ? (
            <>
              {" "}
              with <a href={`#schema-${successRef}`}>{successRef}</a>
            </>
          ) : (
            success.status === "204" && " with no body"
          )}
          .
        </p>
      )}
      <h5>Errors</h5>
      <div className="table-wrap">
        <table className="errors">
          <tbody>
            {errorResponses(op).flatMap((response) =>
              response.codes.map((item) => (
                <tr key={`${response.status}-${item.code || item.when}`}>
                  <td>{response.status}</td>
                  <td>{item.code && <a href={`#error-${item.code}`}>{item.code}</a>}</td>
                  <td>{inline(item.when)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </div>
      <h5>Example</h5>
      <pre>
        <code>{curlExample(doc, view, siteUrl)}</code>
      </pre>
      {success?.example !== undefined && (
        <details>
          <summary>Example answer</summary>
          <pre>
            <code>{JSON.stringify(success.example, null, 2)}</code>
          </pre>
        </details>
      )}
    </article>
  );
}
