/**
 * Signed answers (src/http/AnswerSigning.ts) are signed with the deployment's
 * ledger key: the one that signs checkpoints, published (with its key id) at
 * GET /v1/ledger/signing-key, so one published key verifies both. The key is
 * read or made on first use, as for a checkpoint; a key that cannot be had
 * (a sealed row without its passphrase) fails the signed answer, never an
 * unsigned one.
 */
import { Effect, Layer } from "effect"
import { AnswerSigner } from "../../http/AnswerSigning.ts"
import { LedgerSigner } from "./Signing.ts"

/** The answer signer over the ledger's deployment key (needs `LedgerSigner`). */
export const AnswerSignerLive = Layer.effect(
  AnswerSigner,
  Effect.gen(function*() {
    const ledger = yield* LedgerSigner
    return AnswerSigner.of({ key: Effect.orDie(ledger.bytesSigner) })
  })
)
