// Errors that carry an HTTP status and a sentence for the learner. Expected refusals are these;
// anything else is a fault, logged with its cause and answered with a plain 500.

// Route handlers are bundled apart from the custom server, so this class exists twice at run time:
// recognise it by a registered symbol, never by instanceof.
const BRAND = Symbol.for("studyloop.ApiError");

export class ApiError extends Error {
  readonly [BRAND] = true;

  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function isApiError(error: unknown): error is ApiError {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new ApiError(400, message, extra);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string, extra?: Record<string, unknown>) => new ApiError(409, message, extra);
