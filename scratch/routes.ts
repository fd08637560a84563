import { HttpApi } from "effect/http-api"
import { Api } from "../src/http/Api.ts"
HttpApi.reflect(Api as any, { predicate: () => true, onGroup: () => {}, onEndpoint: ({ group, endpoint, middleware }: any) => {
  const q = (endpoint.query as any)?.schema?.fields
  console.log(group.identifier, endpoint.method, endpoint.path, q && "as_of" in q ? "as_of" : "-", [...(endpoint.middlewares ?? [])].map((m: any) => m.key).join(","))
}})
