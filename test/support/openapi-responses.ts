// Checks real responses against the OpenAPI document (/api/openapi): a 2xx JSON answer of an operation
// whose success response declares a schema must match it. Used by the fuzz test and by
// test/contracts/openapi-responses.integration.test.ts.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

/** `{param}` placeholders of the document's paths as a pattern of concrete paths. */
function pathPattern(oaPath: string) {
  return new RegExp(`^${oaPath.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^/}]+\}/g, "[^/]+")}$`);
}

/** The JSON media type (application/json, application/jrd+json, application/manifest+json…) a success declares a schema under. */
export const jsonTypeOf = (content: Record<string, { schema?: unknown }> | undefined) =>
  Object.entries(content ?? {}).find(([type, c]) => /^application\/([\w.-]+\+)?json\b/.test(type) && c.schema)?.[0];

const escapePointer = (s: string) => s.replaceAll("~", "~0").replaceAll("/", "~1");

export interface ResponseCheck {
  /** the operation (`GET /api/v1/statuses/{id}`) whose schema applied, if any */
  operation?: string;
  /** the validator's errors, empty when the body matches (or no schema applies) */
  errors: string[];
}

export function responseValidator(doc: any) {
  // formats (date-time…) are descriptions here; the document's own keywords (paths, components) are not schema keywords
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
  ajv.addSchema(doc, "openapi");
  // literal paths first, so /api/v1/accounts/verify_credentials is not taken for /api/v1/accounts/{id}
  const operations = Object.entries<Record<string, any>>(doc.paths)
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op, pattern: pathPattern(path) })))
    .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  const compiled = new Map<string, ValidateFunction | null>();

  function validatorFor(path: string, method: string, op: any, status: number): ValidateFunction | null {
    const key = `${method} ${path} ${status}`;
    if (compiled.has(key)) return compiled.get(key)!;
    const type = jsonTypeOf(op.responses?.[String(status)]?.content);
    const validate = type ? ajv.compile({ $ref: `openapi#/paths/${escapePointer(path)}/${method.toLowerCase()}/responses/${status}/content/${escapePointer(type)}/schema` }) : null;
    compiled.set(key, validate);
    return validate;
  }

  function checkFound(found: (typeof operations)[number] | undefined, status: number, body: unknown): ResponseCheck {
    if (!found || status < 200 || status >= 300) return { errors: [] };
    const validate = validatorFor(found.path, found.method, found.op, status);
    if (!validate) return { errors: [] };
    const operation = `${found.method} ${found.path}`;
    if (validate(body)) return { operation, errors: [] };
    return { operation, errors: (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "/"} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ""}`) };
  }

  return {
    /** Checks one answer to a concrete path (without the query string). */
    forPath: (method: string, path: string, status: number, body: unknown) => checkFound(operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(path)), status, body),
    /** Checks one answer to a known operation (`oaPath` as the document writes it). */
    forOperation: (method: string, oaPath: string, status: number, body: unknown) => checkFound(operations.find((o) => o.method === method.toUpperCase() && o.path === oaPath), status, body),
    /** whether the operation declares a success schema */
    declares: (method: string, oaPath: string, status = 200) => !!jsonTypeOf(doc.paths[oaPath]?.[method.toLowerCase()]?.responses?.[String(status)]?.content),
  };
}
