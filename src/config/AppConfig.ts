/**
 * The service's configuration, read once at start through `Config` and
 * validated there: a bad value stops the start with a message naming it.
 */
import { Config, Context, Effect, Layer, Option, Redacted, Schema } from "effect"

export interface AppConfigShape {
  readonly port: number
  readonly host: string
  /** A PostgreSQL server; when absent the embedded PGlite store is used. */
  readonly databaseUrl: Option.Option<Redacted.Redacted>
  /** Where the embedded store keeps its files. */
  readonly dataDir: string
  readonly logLevel: "All" | "Trace" | "Debug" | "Info" | "Warn" | "Error" | "Fatal" | "None"
  /** Token bucket per client: sustained requests per second and burst size. */
  readonly rateLimit: { readonly perSecond: number; readonly burst: number }
  /** Where market data comes from: the bundled offline pack or the live portal. */
  readonly source: "pack" | "portal"
  /** Import the data pack on start when the store has not got it yet. */
  readonly autoImport: boolean
  /** Key that signs paging cursors; absent: a random key per process. */
  readonly cursorSecret: Option.Option<Redacted.Redacted>
  /** How often the market read model checks the store for new data (ms). */
  readonly readModelPollMs: number
  /** The ledger's Ed25519 checkpoint-signing private key (PEM), from LEDGER_SIGNING_KEY or the file LEDGER_SIGNING_KEY_FILE. */
  readonly ledgerSigningKey: Option.Option<Redacted.Redacted>
  readonly ledgerSigningKeyFile: Option.Option<string>
  /**
   * Without a configured signing key, the deployment key kept in the store is encrypted (sealed) with this
   * passphrase (LEDGER_KEY_PASSPHRASE); absent: it is kept unencrypted there (a warning is logged).
   */
  readonly ledgerKeyPassphrase: Option.Option<Redacted.Redacted>
  /** MCP sessions: ended after this many idle minutes; at most `cap` kept (least recently used ended first). */
  readonly mcpSessions: { readonly idleMinutes: number; readonly cap: number }
  /**
   * MCP sessions (src/mcp/SessionRegistry.ts): at most `perClient` per address and per credential, an
   * `initialize` of at most `initializeBytes` bytes of JSON, and `budgetBytes` charged to all sessions together.
   */
  readonly mcpSessionLimits: {
    readonly perClient: number
    readonly initializeBytes: number
    readonly budgetBytes: number
  }
  /**
   * Public keys (PEM, one or more) whose checkpoints verify, from LEDGER_TRUSTED_KEYS or the file
   * LEDGER_TRUSTED_KEYS_FILE; the configured signing key's own public key is trusted besides them.
   */
  readonly ledgerTrustedKeys: Option.Option<string>
  readonly ledgerTrustedKeysFile: Option.Option<string>
}

const positive = (name: string, fallback: number) =>
  Config.schema(Schema.Finite.check(Schema.isGreaterThan(0)), name).pipe(Config.withDefault(fallback))

export const appConfig: Config.Config<AppConfigShape> = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(8080)),
  host: Config.String("HOST").pipe(Config.withDefault("127.0.0.1")),
  databaseUrl: Config.option(Config.Redacted("DATABASE_URL")).pipe(
    Config.map(Option.filter((url) => Redacted.value(url).trim() !== ""))
  ),
  dataDir: Config.String("PSX_DATA_DIR").pipe(Config.withDefault("./.data/pg")),
  logLevel: Config.Literals(["All", "Trace", "Debug", "Info", "Warn", "Error", "Fatal", "None"], "LOG_LEVEL").pipe(
    Config.withDefault<"Info">("Info")
  ),
  rateLimit: Config.all({
    perSecond: positive("RATE_LIMIT_PER_SECOND", 50),
    burst: positive("RATE_LIMIT_BURST", 200)
  }),
  source: Config.Literals(["pack", "portal"], "PSX_SOURCE").pipe(Config.withDefault<"pack">("pack")),
  autoImport: Config.Boolean("PSX_AUTO_IMPORT").pipe(Config.withDefault(true)),
  cursorSecret: Config.option(Config.Redacted("CURSOR_SECRET")).pipe(
    Config.map(Option.filter((secret) => Redacted.value(secret) !== ""))
  ),
  readModelPollMs: positive("PSX_READ_MODEL_POLL_MS", 1_000),
  ledgerSigningKey: Config.option(Config.Redacted("LEDGER_SIGNING_KEY")).pipe(
    Config.map(Option.filter((key) => Redacted.value(key).trim() !== ""))
  ),
  ledgerSigningKeyFile: Config.option(Config.String("LEDGER_SIGNING_KEY_FILE")).pipe(
    Config.map(Option.filter((path) => path.trim() !== ""))
  ),
  ledgerKeyPassphrase: Config.option(Config.Redacted("LEDGER_KEY_PASSPHRASE")).pipe(
    Config.map(Option.filter((secret) => Redacted.value(secret) !== ""))
  ),
  mcpSessions: Config.all({
    idleMinutes: positive("PSX_MCP_SESSION_IDLE_MINUTES", 30),
    cap: Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), "PSX_MCP_SESSIONS").pipe(Config.withDefault(1_000))
  }),
  mcpSessionLimits: Config.all({
    perClient: Config.schema(Schema.Int.check(Schema.isGreaterThan(0)), "PSX_MCP_SESSIONS_PER_CLIENT").pipe(
      Config.withDefault(32)
    ),
    initializeBytes: Config.schema(
      Schema.Int.check(Schema.isBetween({ minimum: 1_024, maximum: 1_048_576 })),
      "PSX_MCP_INITIALIZE_BYTES"
    )
      .pipe(Config.withDefault(8_192)),
    budgetBytes: Config.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1_048_576)), "PSX_MCP_SESSIONS_BYTES")
      .pipe(Config.withDefault(8_388_608))
  }),
  ledgerTrustedKeys: Config.option(Config.String("LEDGER_TRUSTED_KEYS")).pipe(
    Config.map(Option.filter((pem) => pem.trim() !== ""))
  ),
  ledgerTrustedKeysFile: Config.option(Config.String("LEDGER_TRUSTED_KEYS_FILE")).pipe(
    Config.map(Option.filter((path) => path.trim() !== ""))
  )
})

export class AppConfig extends Context.Service<AppConfig, AppConfigShape>()("psx/AppConfig") {
  static readonly layer = Layer.effect(AppConfig, appConfig)
  static readonly layerWith = (overrides: Partial<AppConfigShape>) =>
    Layer.effect(AppConfig, Effect.map(appConfig, (c) => ({ ...c, ...overrides })))
}
