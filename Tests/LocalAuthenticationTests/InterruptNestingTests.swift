import FPTerminal
import Testing

/// Issue 27 §2: SIGINT is process-wide while evaluations overlap. Two that end in the order they
/// began must not leave Ctrl-C ignored for the rest of the app.
@Suite(.serialized) struct InterruptNestingTests {
    @Test(arguments: [true, false])
    func overlappingInterruptHandlersRestoreSIGINTWhicheverEndsFirst(startOrder: Bool) {
        let before = CtrlC.isIgnoringInterrupts
        let first = CtrlC {}
        let second = CtrlC {}
        #expect(CtrlC.isIgnoringInterrupts, "while a handler is live, Ctrl-C is an event, not a kill")
        if startOrder {
            first.release()
            #expect(CtrlC.isIgnoringInterrupts, "the second still listens")
            second.release()
        } else {
            second.release()
            #expect(CtrlC.isIgnoringInterrupts, "the first still listens")
            first.release()
        }
        first.release()
        #expect(CtrlC.isIgnoringInterrupts == before, "SIGINT is back as it was")
    }
}
