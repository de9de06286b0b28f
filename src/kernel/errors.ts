// Typed domain errors; each surface maps them to its own wire shape (REST routes may override per endpoint).
export class DomainError extends Error {
  constructor(
    readonly kind: "unauthorized" | "forbidden" | "not_found" | "invalid" | "conflict" | "unprocessable",
    message: string,
    /** field → message, for validation errors */
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

/** Another server failed or answered something unusable (a remote fetch made for the request): REST answers 502. */
export class UpstreamFailure extends DomainError {
  constructor(message: string) {
    super("unprocessable", message);
  }
}

/**
 * Too many attempts (the password throttle, src/domain/auth/password-throttle.ts): each surface answers
 * its 429. Not a DomainError on purpose: handlers that turn refusals into pages, and the lenient
 * authentication of public routes, pass it on instead of taking it for a wrong password.
 */
export class Throttled extends Error {
  constructor(readonly limit: number, readonly resetAt: number) {
    super("Throttled");
  }
}

export const Unauthorized = (message = "Invalid credentials.") => new DomainError("unauthorized", message);
export const Forbidden = (message = "Forbidden") => new DomainError("forbidden", message);
export const NotFound = (message = "Not found") => new DomainError("not_found", message);
export const Invalid = (message: string, fields?: Record<string, string>) => new DomainError("invalid", message, fields);
export const Conflict = (message: string) => new DomainError("conflict", message);
export const Unprocessable = (message: string, fields?: Record<string, string>) => new DomainError("unprocessable", message, fields);

export const httpStatus: Record<DomainError["kind"], number> = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid: 400,
  conflict: 409,
  unprocessable: 422,
};
