/** A portfolio's settings (GET and PUT /v1/me/settings): one definition for HTTP and OpenAPI. */
import { Schema } from "effect"

const d = <S extends Schema.Top>(s: S, description: string) => s.annotate({ description })
const IsoDate = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u))

/** The PUT body: exactly this field (any other is 400). */
export const SettingsBody = Schema.Struct({
  auto_record_entitlements: d(Schema.Boolean, "true: record each entitlement as it falls due; false: only by accept")
})

const Skipped = Schema.Struct({ id: Schema.String, reason: Schema.String })

export const Settings = Schema.Struct({
  auto_record_entitlements: Schema.Boolean,
  auto_record_since: Schema.optionalKey(
    d(IsoDate, "The Karachi date auto-recording was last turned on: entitlements falling due from it are recorded")
  ),
  updated_at: Schema.optionalKey(d(Schema.String, "When the settings last changed (absent: never set, the defaults)")),
  recorded_now: Schema.optionalKey(d(
    Schema.Array(Schema.Struct({ id: Schema.String, event_id: Schema.String })),
    "PUT only: the entitlements this request recorded on turning auto-recording on (already due today)"
  )),
  skipped: Schema.optionalKey(
    d(Schema.Array(Skipped), "PUT only: due entitlements that cannot be recorded automatically, and why")
  ),
  notes: Schema.Array(Schema.String)
})
