/** The portfolio's settings endpoints (the entitlements opt-in), in the portfolio group (src/ledger/LedgerApi.ts). */
import { HttpApi, HttpApiEndpoint, OpenApi } from "effect/http-api"
import { Forbidden, SourceUnavailable, Unauthorized } from "../../../domain/Errors.ts"
import { Settings, SettingsBody } from "../../../domain/ledger/SettingsSchemas.ts"
import { RequiredGrant } from "../accounts/BearerAuth.ts"

const describe = (summary: string, text: string) => OpenApi.annotations({ summary, description: text })
const errors = [Unauthorized, Forbidden, SourceUnavailable] as const

const SETTINGS =
  "`auto_record_entitlements: true` records each entitlement (GET /v1/me/entitlements) as it falls due, as " +
  "an ordinary event through the same path as POST /v1/me/entitlements/{id}/accept: its metadata names the payout and " +
  "its dataset (`source`, ending \"recorded automatically …\"), the entitlement (`causation_id`) and, as actor, the " +
  "credential that turned the setting on. An entitlement falls due on its credit date, the end of the book closure (the " +
  "payout's payment date is not recorded), in Asia/Karachi; those falling due from the day the setting was turned on " +
  "(`auto_record_since`) are recorded, earlier ones stay `due` for accept. Not recorded automatically: dismissed ones, " +
  "rights, dividends without a known face value or a recorded filer status (`skipped` says why). It runs in a background " +
  "sweep every 15 minutes (PSX_AUTO_RECORD_SWEEP_MINUTES) and once in the PUT that turns it on; reads never record. An " +
  "entitlement is recorded once however many sweeps run (Idempotency-Key entitlement-<id>, across processes)."

export const settingsEndpoints = [
  HttpApiEndpoint.get("settings", "/v1/me/settings", { success: Settings, error: errors }).annotate(
    RequiredGrant,
    "portfolio:read"
  )
    .annotateMerge(describe("Get the portfolio's settings", "Grant portfolio:read. " + SETTINGS)),
  HttpApiEndpoint.put("putSettings", "/v1/me/settings", { payload: SettingsBody, success: Settings, error: errors })
    .annotate(RequiredGrant, "portfolio:write")
    .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error" })
    .annotateMerge(
      describe(
        "Change the portfolio's settings",
        "Grant portfolio:write. Body exactly `{\"auto_record_entitlements\": true|false}` (any other field or type: 400 " +
          "INVALID_REQUEST). Turning it on answers what it recorded at once (`recorded_now`, `skipped`); turning it on " +
          "again keeps `auto_record_since`; turning it off stops it. " + SETTINGS
      )
    )
] as const
