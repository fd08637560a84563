/**
 * What the definitions of the market's per-symbol endpoints share (QuotesApi, CompaniesApi, PricesApi,
 * FilingsApi, ProvenanceApi, and the status endpoint in BoardApi): the failures of a read by ticker, and
 * the documentation of an endpoint, which also keeps its OpenAPI operationId `market.<endpoint>`, as it
 * was when these features shared one group, so clients generated from /openapi.json keep their names.
 */
import { type HttpApiEndpoint, OpenApi } from "effect/http-api"
import { DataNotFound, InvalidSymbol, SourceUnavailable } from "../../domain/Errors.ts"

/** The failures of a read by ticker: malformed (400), unknown (404), store unavailable (503). */
export const symbolErrors = [InvalidSymbol, DataNotFound, SourceUnavailable] as const

/** The endpoint with its summary and description, its operationId `market.<endpoint>` (annotating keeps its type). */
export const marketEndpoint = <E extends HttpApiEndpoint.Constraint>(
  endpoint: E,
  summary: string,
  description: string
): E =>
  (endpoint as unknown as HttpApiEndpoint.Top).annotateMerge(
    OpenApi.annotations({ identifier: `market.${endpoint.identifier}`, summary, description })
  ) as unknown as E
