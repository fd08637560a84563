/**
 * The tax-year statement of a portfolio (GET /v1/me/tax-statement): the
 * ledger's events replayed through the year (domain/ledger/TaxYear.ts) and
 * totalled (domain/ledger/TaxStatement.ts). Reads only; no SQL here.
 *
 * Owns: choosing the year (default the current one, never one not yet begun).
 * Does not own: the events (Portfolio), the tax rules (domain/ledger/Taxes.ts).
 */
import { Clock, Context, Effect, Layer } from "effect"
import { Internal, InvalidRequest, type SourceUnavailable } from "../../../domain/Errors.ts"
import { karachiDate } from "../../../domain/Karachi.ts"
import { describeFailure } from "../../../domain/ledger/Decider.ts"
import type { Principal } from "../../../domain/ledger/Grants.ts"
import { earlierResults } from "../../../domain/ledger/LossSetOff.ts"
import type { ReplayFailure } from "../../../domain/ledger/Replay.ts"
import { taxStatementOf } from "../../../domain/ledger/TaxStatement.ts"
import type { TaxStatement } from "../../../domain/ledger/TaxStatementSchemas.ts"
import { taxYearFigures, taxYearOf } from "../../../domain/ledger/TaxYear.ts"
import { Portfolio, streamOf } from "../portfolio/Portfolio.ts"
import { toEntries } from "../portfolio/Projection.ts"

const broken = (failure: ReplayFailure) =>
  Effect.die(new Internal({ message: `the portfolio's ledger does not replay: ${describeFailure(failure)}` }))

export class TaxStatements extends Context.Service<TaxStatements, {
  readonly statement: (
    principal: Principal,
    taxYear: number | undefined
  ) => Effect.Effect<typeof TaxStatement.Type, InvalidRequest | SourceUnavailable>
}>()("psx/ledger/TaxStatements") {
  static readonly layer = Layer.effect(
    TaxStatements,
    Effect.gen(function*() {
      const portfolio = yield* Portfolio

      const statement = Effect.fn("TaxStatements.statement")(
        function*(principal: Principal, taxYear: number | undefined) {
          const today = karachiDate(yield* Clock.currentTimeMillis)
          const current = taxYearOf(today)
          const year = taxYear ?? current
          if (year > current) {
            return yield* new InvalidRequest({
              message: `query parameter \`tax_year\`: ${year} has not begun (the current tax year is ${current})`
            })
          }
          const entries = toEntries(yield* portfolio.events(principal))
          const figures = taxYearFigures(entries, year)
          if ("_tag" in figures) return yield* broken(figures)
          const earlier = earlierResults(entries, year)
          if ("_tag" in earlier) return yield* broken(earlier)
          return taxStatementOf(streamOf(principal.userId), year, today, figures, earlier)
        }
      )

      return { statement }
    })
  )
}
