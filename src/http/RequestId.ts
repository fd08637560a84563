/**
 * The id this server gives each request (the guard sets it and echoes it as
 * `x-request-id`). Handlers that record a request, such as a ledger append,
 * read it here; the client's own `X-Request-Id` header is a different thing,
 * kept apart. Outside a request it is absent.
 */
import { Context } from "effect"

export const ServerRequestId = Context.Reference<string | undefined>("psx/http/ServerRequestId", {
  defaultValue: () => undefined
})
