/**
 * Each portfolio endpoint names the grant it needs (RequiredGrant, in its Api), which PortfolioAuth checks right
 * after the credential and before the request is decoded (test/ledger.test.ts sends the requests). The key routes
 * decide in their handlers (the session, or keys:manage). The description a client reads names the same grant.
 */
import { assert, describe, it } from "@effect/vitest"
import { Context, Option } from "effect"
import { OpenApi } from "effect/http-api"
import { Api } from "../../src/http/Api.ts"
import { RequiredGrant } from "../../src/ledger/accounts/BearerAuth.ts"

const KEY_ROUTES = ["createKey", "listKeys", "revokeKey"]

describe("grants", () => {
  it("every portfolio endpoint but the key routes names its grant, and its description says the same", () => {
    const endpoints = Object.entries(Api.groups["portfolio"]!.endpoints)
    assert.isAtLeast(endpoints.length, 20)
    for (const [name, endpoint] of endpoints) {
      const grant = Context.getOption(endpoint.annotations, RequiredGrant)
      const description = Option.getOrElse(Context.getOption(endpoint.annotations, OpenApi.Description), () => "")
      if (KEY_ROUTES.includes(name)) {
        assert.isTrue(Option.isNone(grant), `${name} decides in its handler`)
        continue
      }
      assert.isTrue(Option.isSome(grant), `${name} names its grant`)
      assert.isTrue(
        description.startsWith(`Grant ${Option.getOrThrow(grant)}.`),
        `${name}: ${description.slice(0, 40)}`
      )
    }
  })
})
