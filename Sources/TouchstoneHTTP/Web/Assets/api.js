// HTTP: one call of the server's API. Its method and path come from the server's endpoint table (`endpoints.js`, which
// the server writes from TouchstoneProtocol's `Endpoint`); a refusal becomes an ApiError with the problem's fields.

/** A refusal of the server (or no answer at all: code `network`). */
export class ApiError extends Error {
  constructor(status, code, title, detail, retryAfter) {
    super(title || code);
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = detail;
    this.retryAfter = retryAfter;
  }
}

/** The endpoint's path with `values` in place of its `{name}` parameters, in order, each encoded as one segment. */
function pathOf(endpoint, values = []) {
  let next = 0;
  return endpoint.template.replace(/\{[^}]+\}/g, () => encodeURIComponent(values[next++]));
}

/** Calls `endpoint` (`{ method, template }` from endpoints.js), `params` filling its path; the answer's JSON, if any. */
export async function call(endpoint, { params = [], body, token, headers = {}, credentials = "omit" } = {}) {
  const init = {
    method: endpoint.method,
    headers: { Accept: "application/json", ...headers },
    cache: "no-store",
    credentials,
  };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (token) init.headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(pathOf(endpoint, params), init);
  } catch {
    throw new ApiError(0, "network", "network error");
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    throw new ApiError(
      response.status,
      data && typeof data.code === "string" ? data.code : `http_${response.status}`,
      data && data.title,
      data && data.detail,
      response.headers.get("Retry-After"),
    );
  }
  return data;
}
