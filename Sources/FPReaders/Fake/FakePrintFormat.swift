import FPCore

/// The fake reader's serialised print: a magic prefix and the finger id that enrolled it.
enum FakePrintFormat {
    private static let magic = Array("FPBFAKE1:".utf8)

    static func encode(fingerID: String) -> PrintData {
        PrintData(bytes: magic + Array(fingerID.utf8))
    }

    static func decode(_ print: PrintData) throws(ReaderError) -> String {
        guard print.bytes.count > magic.count, print.bytes.starts(with: magic),
              let id = String(validating: print.bytes.dropFirst(magic.count), as: UTF8.self)
        else {
            throw .invalidPrint("not a print made by the fake reader")
        }
        return id
    }
}
