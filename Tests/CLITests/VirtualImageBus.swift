import Foundation
import Testing
import TestSupport

extension FprintdBus {
    /// fpbridged's fprintd face on libfprint's `virtual_image`, listening on `socket`.
    static func virtualImage(_ socket: String) async throws -> FprintdBus {
        try await FprintdBus(.fpbridged, readerEnvironment: ["FP_VIRTUAL_IMAGE": socket, "FP_DRIVERS_WHITELIST": "virtual_image"],
                             reader: "libfprint:virtual_image")
    }

    /// Enrolls root's `finger` through the face with five scans of `image` on `virtual_image`.
    func enrollOnVirtualImage(_ socket: String, finger: String = "right-index-finger", image: String) async throws {
        let enroll = try startClient(["call:Claim:root", "call:EnrollStart:\(finger)", "wait:EnrollStatus:enroll-completed", "call:Release"])
        #expect(try await enroll.waitFor("EnrollStart ok"))
        try await VirtualReaderDriver.sendImages(socket, Array(repeating: image, count: 5), lead: 0.5)
        _ = try await enroll.finish()
        try #require(enroll.output.contains("signal EnrollStatus enroll-completed True"), "\(enroll.output)")
    }
}
