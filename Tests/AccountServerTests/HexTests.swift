import FPKeyFormats
import Testing

/// One hex codec for every layer (issue 27 §4): what it writes it reads back, and it refuses
/// what is not hex.
@Suite struct HexTests {
    @Test func bytesRoundTripAndBadTextIsRefused() {
        let bytes: [UInt8] = [0x00, 0x01, 0x7f, 0x80, 0xab, 0xff]
        #expect(Hex.encode(bytes) == "00017f80abff")
        #expect(Hex.decode("00017f80abff") == bytes)
        #expect(Hex.decode("00017F80ABFF") == bytes)
        #expect(Hex.decode("") == [])
        for bad in ["0", "0g", "zz", "00 1", "-1"] { #expect(Hex.decode(bad) == nil, "\(bad)") }
        let all = (0...255).map(UInt8.init)
        #expect(Hex.decode(Hex.encode(all)) == all)
    }
}
