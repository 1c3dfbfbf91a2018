import Foundation
import TestSupport
import FPReaders
import Testing

@Suite struct FakeScriptTests {
    @Test func parsesEveryEventAndSetting() throws {
        let script = try FakeScript.parse("""
        # a comment
        set stages 3
        set scan-type swipe
        set features verify,identify,capture
        scan alice-1   # trailing comment
        retry too-short
        error too-hot
        unplug
        wait 25

        cancel
        fallback
        """)
        #expect(script.settings.enrollStages == 3)
        #expect(script.settings.scanType == .swipe)
        #expect(script.settings.features == [.verify, .identify, .capture])
        #expect(script.events.map(\.event) == [
            .scan("alice-1"), .retry(.tooShort), .error(.tooHot), .unplug, .wait(milliseconds: 25), .cancel, .fallback,
        ])
        #expect(script.events.first?.number == 5)
    }

    /// `scan ID OTHER=SCORE…`: the scores an identification gives that touch against other fingers' prints.
    @Test func aScanMayScoreAgainstOtherFingers() throws {
        let script = try FakeScript.parse("scan alice-1 bob-1=51 carol-1=0\nscan alice-1")
        #expect(script.events.map(\.event) == [.scan("alice-1"), .scan("alice-1")])
        #expect(script.events.map(\.scores) == [["bob-1": 51, "carol-1": 0], [:]])
    }

    @Test(arguments: [
        ("scan", "line 1: 'scan' takes a finger id"),
        ("scan a b", "line 1: 'scan' takes a finger id, then OTHER=SCORE pairs (a score 0-10000); 'b' is not one"),
        ("scan a b=x", "line 1: 'scan' takes a finger id, then OTHER=SCORE pairs (a score 0-10000); 'b=x' is not one"),
        ("scan a b=10001", "line 1: 'scan' takes a finger id, then OTHER=SCORE pairs (a score 0-10000); 'b=10001' is not one"),
        ("scan a =5", "line 1: 'scan' takes a finger id, then OTHER=SCORE pairs (a score 0-10000); '=5' is not one"),
        ("scan a a=5", "line 1: 'scan a' cannot give its own finger a score ('a=5')"),
        ("ok\nscan a b", "line 1: unknown command 'ok'"),
        ("scan a\nretry sideways", "line 2: unknown retry reason 'sideways'"),
        ("error melted", "line 1: unknown error name 'melted'"),
        ("wait soon", "line 1: 'wait' needs a whole number of milliseconds, not 'soon'"),
        ("set stages 0", "line 1: 'stages' needs a whole number from 1 to 50, not '0'"),
        ("unplug now", "line 1: 'unplug' takes no argument"),
    ])
    func malformedLinesAreNamed(text: String, expected: String) {
        #expect {
            try FakeScript.parse(text)
        } throws: { error in
            (error as? FakeScriptError)?.message.hasPrefix(expected) == true
        }
    }

    /// A device, a FIFO or a huge file named as a script is refused without being read.
    @Test func onlySmallRegularFilesAreRead() throws {
        let directory = TemporaryDirectory()
        let huge = directory.file("huge.txt")
        try Data(repeating: 0x0A, count: FakeScript.maximumSize + 1).write(to: URL(fileURLWithPath: huge))
        let fifo = directory.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, why) in [("/dev/zero", "not a regular file"), (fifo, "not a regular file"), (huge, "is over")] {
            #expect {
                try FakeScript.load(path: path)
            } throws: { error in
                "\(error)".contains(why)
            }
        }
    }
}
