import FPCore

/// Whether stored print bytes can be handed to the reader that made them,
/// checked without a reader and without libfprint touching them.
public enum PrintValidation {
    /// Why the bytes cannot be used, nil when they can.
    public static func problem(in print: PrintData, driver: String) -> String? {
        do {
            if driver == FakeReader.driver {
                _ = try FakePrintFormat.decode(print)
            } else {
                try LibfprintPrint.check(print)
            }
            return nil
        } catch {
            return error.description
        }
    }
}
