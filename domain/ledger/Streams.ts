/**
 * The portfolio stream's name: one stream per user, `portfolio-<user id>`. Read by the portfolio (which writes
 * it), the audit (which replays portfolio streams through the decider) and the anonymous-user sweep (which keeps
 * any user whose stream has an event).
 */
export const PORTFOLIO_STREAM_PREFIX = "portfolio-"

/** The user's portfolio stream. */
export const streamOf = (userId: string) => `${PORTFOLIO_STREAM_PREFIX}${userId}`

/** Whether a stream is a user's portfolio (not a donation's). */
export const isPortfolioStream = (streamId: string) => streamId.startsWith(PORTFOLIO_STREAM_PREFIX)
