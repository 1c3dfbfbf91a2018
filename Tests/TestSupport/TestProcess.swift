internal import CTestProcess

/// The test process itself: what CTestProcess sets up in it when the test binary loads.
public enum TestProcess {
    /// Whether a SIGPIPE in this process is caught and reported (the writer's frames on stderr
    /// after ``sigpipeMarker``) rather than ending the process.
    public static var sigpipeWatched: Bool { fpb_tests_sigpipe_watched() != 0 }

    /// The words that start a SIGPIPE's report; scripts/swift-test.py looks for them.
    public static let sigpipeMarker = FPB_SIGPIPE_MARKER
}
