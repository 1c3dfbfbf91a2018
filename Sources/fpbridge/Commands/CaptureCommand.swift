import ArgumentParser
import FPAuthentication
import FPJSON
import FPImaging
import FPReaders

struct CaptureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Wait for a finger on an image reader and save the image.",
        discussion: """
        The image is written as 8-bit greyscale, pixel values exactly as the reader returned them, \
        in the format the file name's extension names: .pgm or .png. Match-on-chip readers never \
        hand out images and give error -2010 notSupported. No attempt counter is touched: a capture \
        matches nothing.
        """)

    @OptionGroup var options: GlobalOptions

    @Option(name: .long, help: ArgumentHelp("Where to write the image (.pgm or .png).", valueName: "FILE"))
    var out: String

    func validate() throws {
        do { _ = try ImageFormat(path: out) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        try await ReaderSession.with(options) { reader in
            let reader = reader!
            let info = await reader.info
            guard info.features.contains(.capture) else {
                throw AuthError(.notSupported, "\(info.identity) (\(info.name)) cannot capture images: "
                                + "only image readers can (see the features in 'fpbridge readers'); "
                                + "readers that match on the chip never hand out a picture")
            }
            options.console.note("\(info.scanType.instruction) to capture an image…")
            // No wait without an end: the same bound as a scan, so an abandoned capture cannot overheat the reader.
            let seconds = try options.configuration().scanTimeoutSeconds
            let captured: CapturedImage
            do {
                captured = try await withDeadline(.now + .milliseconds(Int(seconds * 1000)),
                                                  timeout: AuthError(.timedOut, "no finger was presented within \(SecondsText.words(seconds))")) {
                    try await reader.capture()
                }
            } catch {
                throw AuthError(error)
            }
            guard let image = GreyImage(width: captured.width, height: captured.height, pixels: captured.pixels) else {
                throw AuthError(.readerFailure, "the reader returned an empty image")
            }
            do { try ImageFile.write(image, to: out) } catch { throw AuthError(.invalidInput, "\(error)") }
            options.console.success("Wrote \(image.width)x\(image.height) image from \(info.identity) to \(out).",
                                    ["file": .string(out), "width": .int(image.width), "height": .int(image.height),
                                     "driver": .string(info.identity.driver), "deviceId": .string(info.identity.deviceID)])
        }
    }
}
