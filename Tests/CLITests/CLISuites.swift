import TestKit
import Testing

/// Every suite here runs programs and blocks a thread while each runs (waitpid, pipe reads).
/// On a 2-core machine two such suites at once would hold the whole cooperative pool and
/// starve the async suites of the other targets, so all of them run one after another.
@Suite(.oneAtATime, .serialized) enum CLISuites {}
