internal import CLibfprint
import Dispatch
import FPCore

/// The libfprint print path for the fuzzer: the check, then, for bytes that pass
/// it, `fp_print_deserialize` itself on the loop thread, as verify and identify do.
@_spi(Fuzzing)
public enum LibfprintFuzzing {
    /// Checks `bytes` and, when they pass, deserialises them with libfprint on the loop thread.
    public static func decode(_ bytes: [UInt8]) {
        let done = DispatchSemaphore(value: 0)
        Task { @GLibLoop in
            if let print = try? LibfprintPrint.decode(PrintData(bytes: bytes)) {
                g_object_unref(UnsafeMutableRawPointer(print))
            }
            done.signal()
        }
        done.wait()
    }
}
