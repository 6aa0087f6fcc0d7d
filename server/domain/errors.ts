/**
 * Typed domain errors. `message` is a translation key (namespace:key) that the screens show;
 * `field` ties the message to one form field. They are mapped to HTTP in one place (app/lib/http.server.ts).
 */
export class DomainError extends Error {
  constructor(
    readonly kind: "invalid" | "not_found" | "forbidden" | "conflict" | "rate_limited",
    message: string,
    readonly field?: string,
    readonly params?: Record<string, string>,
  ) {
    super(message);
  }
}

export const invalid = (message: string, field?: string, params?: Record<string, string>) =>
  new DomainError("invalid", message, field, params);
export const notFound = (message = "errors:notFound") => new DomainError("not_found", message);
export const forbidden = (message = "errors:forbidden") => new DomainError("forbidden", message);
export const conflict = (message: string, field?: string) => new DomainError("conflict", message, field);
export const rateLimited = () => new DomainError("rate_limited", "errors:rateLimited");
