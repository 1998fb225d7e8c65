import TestKit
import Testing

/// The suites that start glasses-audiod run one after another: each holds a real daemon (and
/// some a sound server) that a 2-core machine should not run several of at once.
@Suite(.oneAtATime, .serialized) enum DaemonSuites {}
