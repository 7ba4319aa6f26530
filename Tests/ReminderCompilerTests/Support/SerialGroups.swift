import Testing

/// Suites that drive external programs — Chromium, Spark, Radicale, the Python calendar
/// readers, a nested `swift build` — run one test at a time, each while no other suite of
/// this group runs: each of those programs wants a core or more, and on a 2-core machine
/// two at once would slow every other test with them. The rest of the suite runs beside
/// them. A test's time counts from when it starts, so waiting for its turn costs it nothing.
@Suite(.serialized) enum ExternalProgramTests {}

/// Suites whose tests compute for many seconds (random configs against slow references)
/// run one test at a time too, and their loops yield between rounds: then at most one of
/// them holds a thread of the cooperative pool, and tests that await a child process get
/// the other one without waiting behind them.
@Suite(.serialized) enum LongComputationTests {}
