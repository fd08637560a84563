/**
 * Portfolio and donation endpoints (SPEC 4.5) plus the auditor's ledger
 * endpoints and API-key management. Definitions only; handlers in LedgerHttp.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  DataNotFound,
  Forbidden,
  IdempotencyMismatch,
  InvalidSymbol,
  PayoutRecorded,
  SourceUnavailable,
  Unauthorized,
  WriteConflict
} from "../../domain/Errors.ts"
import { LedgerListing, SignedCheckpoint, SigningKeys } from "../../domain/ledger/Checkpoint.ts"
import { EntitlementAction, EntitlementId, Entitlements } from "../../domain/ledger/EntitlementSchemas.ts"
import * as L from "../../domain/ledger/Schemas.ts"
import { Cursor, limitParam } from "../../domain/Params.ts"
import { PortfolioAuth, RequiredGrant } from "./accounts/BearerAuth.ts"
import { performanceEndpoints } from "./performance/PerformanceApi.ts"
import { csvEndpoints, csvTemplateEndpoint } from "./portfolio/TransactionsCsvApi.ts"
import { settingsEndpoints } from "./settings/SettingsApi.ts"
import { taxEndpoints } from "./tax/TaxApi.ts"

const describe = (summary: string, text: string) => OpenApi.annotations({ summary, description: text })
const auth = [Unauthorized, Forbidden] as const

/** The key-management rule, stated on every key endpoint. */
const KEY_RULE =
  "Key management needs the owner's session token, or an API key holding the grant keys:manage, which is " +
  "never given by default (403 FORBIDDEN otherwise). A key can never mint a credential with a grant it lacks, and never " +
  "revoke the session or a key holding a grant it lacks."

export const LEDGER_DEFAULT_LIMIT = 100
/** The key list's page size: the default and the most (as many as the live keys one user may hold). */
export const KEYS_MAX_LIMIT = L.MAX_LIVE_KEYS
export const LEDGER_MAX_LIMIT = 1000
/** The entitlement list's page size: the default and the most. */
export const ENTITLEMENTS_DEFAULT_LIMIT = 100
export const ENTITLEMENTS_MAX_LIMIT = 500

/** Entitlements: the list, accept and dismiss. */
const ENTITLEMENT_RULE =
  "An entitlement follows a payout the market records (cash dividend, bonus or right issue) of a symbol " +
  "in this ledger, once its last buy date has passed: the shares held at the end of the last buy date (the last trading day " +
  "whose settlement, T+2 for trades to 6 Feb 2026 and T+1 from 9 Feb 2026, trading days only, falls before the book closure " +
  "starts) decide it. Cash per share = percent × the company's face value in force on the ex day / 100 (LUCK's is Rs 2 " +
  "from 28 Apr 2025; unknown face value: rupees absent, never an assumed Rs 10); tax is withheld by the rule in force on the " +
  "credit date (15% filers, 30% non-filers) with the filer status the portfolio recorded (absent status: tax and net absent). " +
  "A bonus is whole shares plus the fraction owed as cash (whose rupees are not recorded). A right lists the whole shares " +
  "offered and, when the payout's text states par or a premium, their price. Splits are not listed (no dated record). " +
  "Amounts are computed on read, so a backdated trade that changes the position changes them; a recorded event whose " +
  "figures no longer match says so (`matches: false`, `mismatch`). The id is `ent-` and the payout's id, stable across reads."
const entitlementEndpoints = [
  HttpApiEndpoint.get("entitlements", "/v1/me/entitlements", {
    query: { limit: limitParam(ENTITLEMENTS_MAX_LIMIT, ENTITLEMENTS_DEFAULT_LIMIT) },
    success: Entitlements,
    error: [...auth, SourceUnavailable]
  }).annotate(RequiredGrant, "portfolio:read").annotateMerge(
    describe(
      "List what the portfolio is owed by recorded payouts",
      "Grant portfolio:read. " + ENTITLEMENT_RULE +
        " Newest book closure first, at most `limit` items (`total` counts all). " +
        "State: `due` (no matching event), `recorded` (a dividend or bonus event of the symbol with the same book closure " +
        "exists, however it was recorded) or `dismissed`. A portfolio may opt in to recording them as they fall due " +
        "(PUT /v1/me/settings)."
    )
  ),
  HttpApiEndpoint.post("acceptEntitlement", "/v1/me/entitlements/:id/accept", {
    params: { id: EntitlementId },
    success: EntitlementAction,
    error: [...auth, InvalidSymbol, DataNotFound, IdempotencyMismatch, PayoutRecorded, SourceUnavailable]
  }).annotate(RequiredGrant, "portfolio:write").annotateMerge(
    describe(
      "Record an entitlement",
      "Grant portfolio:write. Records the entitlement's dividend (per share) or bonus (percent) with its book closure, on its " +
        "credit date (the end of the book closure), through the same decider and rules as POST /v1/me/transactions; the " +
        "event's metadata names the payout and its dataset (`source`) and the entitlement (`causation_id`). Idempotent: an " +
        "entitlement already recorded (by accept or by hand) answers its event with `recorded_now: false` and records nothing. " +
        "A right (offered, not credited), a cash payout without a known face value, a portfolio without a recorded filer " +
        "status, or a credit date still ahead is 400 INVALID_REQUEST and records nothing; an id this portfolio does not have " +
        "is 404. To record the warrant's own amounts instead, use POST /v1/me/transactions with gross_amount and tax_withheld."
    )
  ),
  HttpApiEndpoint.post("dismissEntitlement", "/v1/me/entitlements/:id/dismiss", {
    params: { id: EntitlementId },
    success: EntitlementAction,
    error: [...auth, DataNotFound, SourceUnavailable]
  }).annotate(RequiredGrant, "portfolio:write").annotateMerge(
    describe(
      "Dismiss an entitlement",
      "Grant portfolio:write. Hides the entitlement: it stays in the list with state `dismissed` (a recorded one stays " +
        "`recorded`). Dismissing twice is the same as once; an id this portfolio does not have is 404."
    )
  )
] as const

/** A donation in the portfolio's own ledger (listed by its tax-year statement). */
const portfolioDonationEndpoints = [
  HttpApiEndpoint.post("donateFromPortfolio", "/v1/me/donations", {
    payload: L.DonationBody,
    success: L.Donation,
    error: [...auth, WriteConflict, SourceUnavailable]
  }).annotate(RequiredGrant, "portfolio:write").annotateMerge(
    describe(
      "Create a donation (pending) in this portfolio's ledger",
      "Grant portfolio:write. As POST /v1/donations (same body and answer, a pending record, no payment taken), but the " +
        "donation is an event of this portfolio's own stream, so its tax-year statement lists it. It moves no position."
    )
  )
] as const

export class AccountApi extends HttpApiGroup.make("account")
  .add(
    HttpApiEndpoint.post("session", "/v1/me/session", {
      success: L.Session.pipe(HttpApiSchema.status(201)),
      error: SourceUnavailable
    }).annotateMerge(
      describe(
        "Create an anonymous session",
        "Creates an anonymous user and a session token (201). The token is accepted as a bearer credential for that user " +
          "with both grants, portfolio:read and portfolio:write. It is shown once and stored only as a hash."
      )
    ),
    HttpApiEndpoint.post("donate", "/v1/donations", {
      payload: L.DonationBody,
      success: L.Donation,
      error: [WriteConflict, SourceUnavailable]
    }).annotateMerge(
      describe(
        "Create a donation (pending)",
        "Creates a donation record in the pending state (200), as the one event of a ledger stream of its own " +
          "(`donation-<id>`), so concurrent donations never wait on each other. Body: amount (rupees, > 0, at most " +
          "10,000,000, two decimals at most), currency PKR (the default), optional note. No payment is taken. A bad amount " +
          "is 400 INVALID_REQUEST; a write conflict the service could not retry is 409 INVALID_REQUEST (nothing recorded: " +
          "send it again)."
      )
    ),
    csvTemplateEndpoint,
    HttpApiEndpoint.get("signingKey", "/v1/ledger/signing-key", { success: SigningKeys, error: SourceUnavailable })
      .annotateMerge(
        describe(
          "Get the ledger's public signing keys",
          "Public. The Ed25519 public keys (PEM, SPKI) this service trusts, by key id, each with the period it signed in " +
            "(first_used_at to last_used_at); the one it signs with is marked `current`. There is one signing key per " +
            "deployment (the same in every instance and after a restart); a key pinned in the service's configuration " +
            "(an old key after a rotation) stays listed, so earlier checkpoints stay verifiable. `untrusted_keys` lists every " +
            "other key the store records as having signed: checkpoints under those fail verification as a key problem."
        )
      )
  )
  .annotateMerge(OpenApi.annotations({
    title: "Sessions and donations",
    description:
      "Anonymous sessions (the token is a bearer credential), pending donation records, and the ledger's public " +
      "signing keys. No key needed."
  }))
{}

export class PortfolioApi extends HttpApiGroup.make("portfolio")
  .add(
    HttpApiEndpoint.get("holdings", "/v1/me/holdings", { success: L.Holdings, error: [...auth, SourceUnavailable] })
      .annotate(RequiredGrant, "portfolio:read")
      .annotateMerge(
        describe(
          "Get holdings",
          "Grant portfolio:read. Per position: quantity, average cost, market value at the delayed quote (with its as-of; " +
            "absent when no quote is known), unrealized and realized profit/loss, dividends received."
        )
      ),
    HttpApiEndpoint.get("portfolio", "/v1/me/portfolio", {
      query: { limit: limitParam(LEDGER_MAX_LIMIT, LEDGER_DEFAULT_LIMIT), cursor: Cursor },
      success: L.Portfolio,
      error: [...auth, SourceUnavailable]
    }).annotate(RequiredGrant, "portfolio:read").annotateMerge(
      describe(
        "Get the portfolio",
        "Grant portfolio:read. Holdings, totals, cash flows and the transaction history (newest first, paged)."
      )
    ),
    HttpApiEndpoint.get("analyze", "/v1/me/analyze", { success: L.Analysis, error: [...auth, SourceUnavailable] })
      .annotate(RequiredGrant, "portfolio:read")
      .annotateMerge(
        describe(
          "Analyse the portfolio against KSE-100",
          "Grant portfolio:read. Benchmarked against the KSE-100 constituents: sector weights beside the index's, overlap, " +
            "concentration, dividend income. Parts that cannot be computed are listed in `unavailable` with the reason."
        )
      ),
    ...entitlementEndpoints,
    ...performanceEndpoints,
    HttpApiEndpoint.post("transact", "/v1/me/transactions", {
      payload: L.TransactionBody,
      headers: {
        "idempotency-key": Schema.optional(
          L.StorableText(200).annotate({
            description:
              "Same key and body: the original result, nothing appended; same key, other body: 409 INVALID_REQUEST"
          })
        )
      },
      success: L.RecordResult.pipe(HttpApiSchema.status(201)),
      error: [
        ...auth,
        InvalidSymbol,
        DataNotFound,
        IdempotencyMismatch,
        WriteConflict,
        PayoutRecorded,
        SourceUnavailable
      ]
    }).annotate(RequiredGrant, "portfolio:write").annotateMerge(
      describe(
        "Record a transaction",
        "Grant portfolio:write. Records a buy, sell, dividend, bonus issue or split with its trade date, the portfolio's tax " +
          "status (filer or not) from a date, or reverses an earlier event (with a reason); events are never changed. No " +
          "order is placed. Quantities are whole shares (1 to 1,000,000,000); money is rupees with at most two decimals " +
          "(paisa; four for a dividend per share), bounded; dates are real calendar dates from 2004-01-01 (the first " +
          "recorded session) and, for a trade, not before the symbol's first recorded session and not on or after the day the symbol left the exchange's listing (delisted_on).\n\n" +
          "Entitlement: a dividend or bonus is owed on the shares held at the end of the last buy date of its book closure " +
          "(`book_closure_from`, or the recorded payout's): the last trading day whose settlement (T+2 for trades to 6 Feb " +
          "2026, T+1 from 9 Feb 2026, trading days only) falls before the closure starts. The event stores the percent or " +
          "the amount per share; shares and rupees are computed from the positions, so a trade recorded later but dated " +
          "earlier re-derives them. A bonus credits whole shares; the fraction is a cash entitlement " +
          "(`fractional_entitlements`). A trade or reversal that would leave a recorded dividend or bonus with no shares on " +
          "its entitlement date is refused (400, naming the entitlement): reverse the entitlement first.\n\n" +
          "Taxes: dividend withholding follows the dated rule in force (15% filers, 30% non-filers) with the portfolio's " +
          "filer status, unless the warrant's gross and tax are given. Realised profit and loss are before capital gains tax.\n\n" +
          "Rejections change nothing and never reveal how many shares are held: selling more than held as of that date (a " +
          "backdated trade may not make any later position negative), a future trade date, a buy or sell on a non-trading " +
          "day, a value out of bounds are 400 INVALID_REQUEST; an unknown symbol is 404, a malformed one 400 INVALID_SYMBOL. " +
          "A write that keeps losing races to other processes' writes on the same portfolio (retried six times, backing " +
          "off) is 409 INVALID_REQUEST with nothing recorded: send it again. " +
          "A price outside that day's circuit-breaker bounds (from the previous trading day's as-traded close) is accepted " +
          "and flagged; without that close the flag says the check is unknown. A price more than 50% from the day's " +
          "recorded close on any basis (as traded, or the served series, which the source may have restated for a split) " +
          "is accepted and flagged, naming the close, its basis and the likely restatement: LUCK at 1,050 on 2026-05-20 " +
          "is 2.56× the served close of 410.88, a series restated 5:1 (as traded about 2,054.40). " +
          "A dividend or bonus for a payout already recorded (same symbol, kind and book closure, not reversed), by hand " +
          "or by accepting the entitlement, is 409 INVALID_REQUEST naming the event that holds it (`event_id`): a payout " +
          "is counted once; to change it, reverse that event and record the correction. A write whose commit has begun " +
          "answers what it did even past the request deadline; one the deadline answered first (503) records nothing. " +
          "`X-Request-Id`, kept in the event's hashed metadata, is at most 200 characters (longer: 400, nothing recorded).\n\n" +
          "The 201 carries the event and, when the credential also holds portfolio:read, the holding it touched; a replay " +
          "of an Idempotency-Key carries the original event only."
      )
    ),
    // CSV in and out.
    ...csvEndpoints,
    // The tax-year statement, settings and a portfolio's donations.
    ...taxEndpoints,
    ...settingsEndpoints,
    ...portfolioDonationEndpoints,
    HttpApiEndpoint.get("ledger", "/v1/me/ledger", {
      query: { limit: limitParam(LEDGER_MAX_LIMIT, LEDGER_DEFAULT_LIMIT), cursor: Cursor },
      success: LedgerListing,
      error: [...auth, SourceUnavailable]
    }).annotate(RequiredGrant, "portfolio:read").annotateMerge(
      describe(
        "Page the ledger events",
        "Grant portfolio:read. This portfolio's events, newest first, with positions and hashes. Each item carries what " +
          "`ledger export` writes for the event (stream_id, event, metadata, the hashes), so a client can recompute the chain: " +
          "the items' export lines, oldest first, with the checkpoint of GET /v1/me/ledger/checkpoint as a last line " +
          "{\"checkpoint\": …}, verify offline with docs/verify-ledger.mjs and the public key of GET /v1/ledger/signing-key."
      )
    ),
    HttpApiEndpoint.get("verify", "/v1/me/ledger/verify", {
      success: L.VerifyResult,
      error: [...auth, SourceUnavailable]
    }).annotate(RequiredGrant, "portfolio:read")
      .annotateMerge(
        describe(
          "Verify the ledger's hash chain",
          "Grant portfolio:read. Recomputes the hash chain, replays the events into a fresh projection and checks the signed " +
            "checkpoints: ok, or the first event that does not verify (`first_failure`), or the first checkpoint that cannot " +
            "vouch for the events because of its key or its signature (`checkpoint_problem`: a key problem is never reported " +
            "as a changed event)."
        )
      ),
    HttpApiEndpoint.get("checkpoint", "/v1/me/ledger/checkpoint", {
      success: SignedCheckpoint,
      error: [...auth, DataNotFound, SourceUnavailable]
    }).annotate(RequiredGrant, "portfolio:read").annotateMerge(
      describe(
        "Get a signed checkpoint of the ledger",
        "Grant portfolio:read. A fresh signed checkpoint of this portfolio's stream: stream id, version, the head event's " +
          "chain hash, signing time and key id, as the exact signed bytes (`signed`, UTF-8 canonical JSON in which the head " +
          "hash appears verbatim) and an Ed25519 signature (`signature`, base64) checkable with GET /v1/ledger/signing-key. " +
          "404 while the stream is empty."
      )
    ),
    HttpApiEndpoint.post("createKey", "/v1/me/keys", {
      payload: L.KeyCreateBody,
      success: L.NewKey.pipe(HttpApiSchema.status(201)),
      error: [...auth, SourceUnavailable]
    }).annotateMerge(
      describe(
        "Create an API key",
        "Creates an API key for the signed-in user with the chosen grants; the key is shown once. A user holds at most " +
          `${L.MAX_LIVE_KEYS} live (unrevoked) API keys, the session token aside: creating one more is 400 INVALID_REQUEST ` +
          "naming the limit; revoke one first. " + KEY_RULE
      )
    ),
    HttpApiEndpoint.get("listKeys", "/v1/me/keys", {
      query: { limit: limitParam(KEYS_MAX_LIMIT, KEYS_MAX_LIMIT), cursor: Cursor },
      success: L.KeyPage,
      error: [...auth, SourceUnavailable]
    }).annotateMerge(
      describe(
        "List API keys",
        "This user's keys and sessions, without secrets, oldest first, in pages (`next_cursor` continues; a cursor is " +
          "signed, belongs to this user and expires). `total` counts revoked ones too. " + KEY_RULE
      )
    ),
    HttpApiEndpoint.delete("revokeKey", "/v1/me/keys/:id", {
      params: { id: L.Id },
      success: L.KeyInfo,
      error: [...auth, DataNotFound, SourceUnavailable]
    }).annotateMerge(
      describe(
        "Revoke an API key",
        "Revokes a key or session; it answers 401 from then on. An id with control characters is 400, an unknown one 404 " +
          "(the answer never repeats the id, in case a secret was sent in its place). " + KEY_RULE
      )
    )
  )
  .middleware(PortfolioAuth)
  .annotateMerge(OpenApi.annotations({
    title: "Portfolio ledger",
    description: "The caller's own portfolio: holdings, analysis, recorded trades as immutable hash-chained events, " +
      "verification, signed checkpoints and API keys. Needs Authorization: Bearer <session token or API key> with the grant " +
      "each route names. A credential without that grant is 403 FORBIDDEN before anything else of the request is read: it " +
      "learns nothing of its path parameters, query or body, not even that they are malformed."
  }))
{}
