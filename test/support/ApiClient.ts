/**
 * A typed client of the test app derived from the API definition
 * (`HttpApiClient.make(Api)`): requests are encoded and answers decoded by the
 * routes' own Schemas, so a test reads typed records instead of `any`. A
 * declared error answer fails the call with its typed error; tests of status
 * codes and error records keep the raw `get`/`post` of TestApp.ts.
 */
import { HttpApiClient } from "effect/http-api"
import { Api } from "../../src/http/Api.ts"

/** The typed client for the test app's loopback server (needs the HttpClient TestApp provides). */
export const apiClient = HttpApiClient.make(Api)
