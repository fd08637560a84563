/**
 * What a market tool answers for its route's reply: the route's body made compact (src/mcp/Compact.ts), with
 * `data_through` read from the reply's `X-Data-Through` header, as the tool adds it.
 */
import { compactRecord } from "../../src/mcp/Compact.ts"
import { dataThroughOf } from "../../src/mcp/RouteCaller.ts"

export const toolRecordOf = (reply: { readonly body: unknown; readonly headers: Readonly<Record<string, string>> }) => {
  const dataThrough = dataThroughOf(reply.headers["x-data-through"])
  const body = reply.body as Record<string, unknown>
  return compactRecord(dataThrough === undefined ? body : { ...body, data_through: dataThrough })
}
